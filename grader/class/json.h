/* json.h - a small JSON reader for the grader's results files.
 *
 * The batch tool reads what the grader wrote (and what it wrote itself) to
 * build summaries and other formats after the fact, so the reader must
 * accept any valid JSON and reject anything else with a message that says
 * where, never crash on a torn or hostile file.
 */
#ifndef CLASS_JSON_H
#define CLASS_JSON_H

#include <stddef.h>

typedef enum { JV_NULL, JV_FALSE, JV_TRUE, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_type;

typedef struct jv_value jv_value;
struct jv_value {
    jv_type type;
    double number;
    char *string;      /* JV_STRING: UTF-8, NUL-terminated (an embedded \u0000 ends it) */
    size_t n;          /* JV_ARRAY, JV_OBJECT: number of items */
    char **keys;       /* JV_OBJECT: n keys, in file order */
    jv_value **items;  /* JV_ARRAY, JV_OBJECT: n values */
};

/* Parse text[0..len) as one JSON value with nothing after it but blanks.
 * Returns 0 and *out (free with jv_free), or -1 and a message in err. */
int jv_parse(const char *text, size_t len, jv_value **out, char *err, size_t err_size);
/* The same for a whole file. */
int jv_parse_file(const char *path, jv_value **out, char *err, size_t err_size);
void jv_free(jv_value *v);

/* Lookups that tolerate a missing or mistyped value: NULL or the default. */
const jv_value *jv_get(const jv_value *object, const char *key); /* last duplicate wins */
const char *jv_str(const jv_value *object, const char *key, const char *dflt);
double jv_num(const jv_value *object, const char *key, double dflt);
int jv_bool(const jv_value *object, const char *key, int dflt);

#endif
