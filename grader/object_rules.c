/* object_rules.c - see object_rules.h. */
#define _POSIX_C_SOURCE 200809L
#include "object_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"

enum { MAX_SECTIONS = 4096 };

typedef struct {
    int n;
    char **name; /* whole: a template instance's section is named after it, */
    char (*type)[24]; /* and C++ names run to hundreds of characters */
} section_table;

/* readelf OPTION object, its listing kept in scratch; the caller frees. */
static char *readelf(const char *option, const char *object, const char *scratch, const char *tag)
{
    char path[600];
    snprintf(path, sizeof path, "%s/readelf-%s.txt", scratch, tag);
    remove(path);
    char *argv[] = {"readelf", "-W", (char *)option, (char *)object, NULL};
    iso_result ir;
    if (iso_run(argv, path, 60, &ir) != 0 || !ir.exited || ir.exit_code != 0) return NULL;
    return iso_log_tail(path, 64 << 20);
}

/* "  [Nr] Name Type ..." lines of readelf -S. */
static int read_sections(char *listing, section_table *t)
{
    t->n = 0;
    t->name = calloc(MAX_SECTIONS, sizeof *t->name);
    t->type = calloc(MAX_SECTIONS, sizeof *t->type);
    if (!t->name || !t->type) return -1;
    for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n")) {
        char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
        int index;
        if (!close || sscanf(open + 1, "%d]", &index) != 1) continue;
        if (index < 0 || index >= MAX_SECTIONS || t->name[index]) continue;
        char *name = close + 1 + strspn(close + 1, " ");
        size_t length = strcspn(name, " \t");
        if (length == 0) continue;
        char type[24] = "";
        sscanf(name + length, "%23s", type);
        t->name[index] = strndup(name, length);
        if (!t->name[index]) return -1;
        if (index >= t->n) t->n = index + 1;
        snprintf(t->type[index], sizeof t->type[0], "%s", type);
    }
    for (int i = 0; i < t->n; i++)
        if (!t->name[i] && !(t->name[i] = strdup(""))) return -1;
    return 0;
}

typedef struct {
    unsigned long long value, size;
    char type[16], bind[16], vis[16], ndx[16];
    char name[4096]; /* a template instance's mangled name runs long */
} elf_symbol;

/* "Num: Value Size Type Bind Vis Ndx Name" lines of readelf -s. */
static int parse_symbol(const char *line, elf_symbol *s)
{
    memset(s, 0, sizeof *s);
    int num;
    int used = 0;
    if (sscanf(line, " %d: %llx %llu %15s %15s %15s %15s %n", &num, &s->value, &s->size, s->type,
               s->bind, s->vis, s->ndx, &used) < 7)
        return 0;
    snprintf(s->name, sizeof s->name, "%s", line + used);
    s->name[strcspn(s->name, " \r\n")] = 0;
    return 1;
}

static const char *section_of(const section_table *t, const char *ndx)
{
    int i = atoi(ndx);
    return (i > 0 && i < t->n) ? t->name[i] : "";
}

/* A definition the compiler may merge across files (an inline function, a
 * template instance): it sits in a section of its own named after it. */
static int comdat_style(const char *section, const char *name)
{
    size_t s = strlen(section), n = strlen(name);
    return s > n + 1 && section[s - n - 1] == '.' && !strcmp(section + s - n, name);
}

/* A kernel's host-side stub, or nvcc's stub behind it. */
static int kernel_stub(const char *name, const char *all_symbols)
{
    if (strstr(name, "__device_stub__")) return 1;
    char want[600];
    if (!strncmp(name, "_Z", 2)) snprintf(want, sizeof want, "__device_stub__%s", name + 1);
    else snprintf(want, sizeof want, "__device_stub__Z%zu%s", strlen(name), name);
    return strstr(all_symbols, want) != NULL;
}

/* The host stand-in nvcc writes for a __device__ function: a few bytes
 * that call exit (the function only exists on the GPU). Read from the
 * relocations of its section that fall inside it. */
static int device_function_stub(const elf_symbol *s, unsigned long long size,
                                const section_table *sections, const char *relocs)
{
    if (size == 0 || size > 64 || strcmp(s->type, "FUNC") != 0) return 0;
    const char *section = section_of(sections, s->ndx);
    size_t heading_size = strlen(section) + 8;
    char *heading = malloc(heading_size);
    if (!heading) return 0;
    snprintf(heading, heading_size, "'.rela%s'", section);
    const char *at = strstr(relocs, heading);
    free(heading);
    if (!at) return 0;
    int calls_exit = 0, calls_other = 0;
    for (const char *line = strchr(at, '\n'); line && line[1] && strncmp(line + 1, "Relocation", 10);
         line = strchr(line + 1, '\n')) {
        unsigned long long offset;
        char info[32], type[64], value[32], target[256] = "";
        if (sscanf(line + 1, "%llx %31s %63s %31s %255s", &offset, info, type, value, target) < 5)
            continue;
        if (offset < s->value || offset >= s->value + size) continue;
        if (!strcmp(target, "exit")) calls_exit = 1;
        else calls_other = 1;
    }
    return calls_exit && !calls_other;
}

static int check_symbols(char *listing, const section_table *sections, const char *relocs,
                         const char *entry, int emulated, FILE *keep, char *why, size_t size)
{
    char *copy = strdup(listing);
    if (!copy) return -1;
    int verdict = 0, entry_defined = 0;
    /* The entry point's name as C++ mangles it without extern "C". */
    char mangled[160];
    snprintf(mangled, sizeof mangled, "_Z%zu%s", strlen(entry), entry);
    for (char *line = strtok(listing, "\n"); line && verdict == 0; line = strtok(NULL, "\n")) {
        elf_symbol s;
        if (!parse_symbol(line, &s) || !strcmp(s.ndx, "UND") || !s.name[0]) continue;
        const char *rule = NULL;
        if (!strcmp(s.name, entry) && strcmp(s.bind, "LOCAL") != 0) entry_defined = 1;
        if (!strncmp(s.name, mangled, strlen(mangled)) && strcmp(s.bind, "LOCAL") != 0)
            rule = "is the entry point without extern \"C\": declare it extern \"C\" as the "
                   "skeleton does";
        else if (!strcmp(s.type, "IFUNC"))
            rule = "is an indirect function, whose resolver would run before the grader starts";
        else if (!strcmp(s.bind, "LOCAL") || !strcmp(s.name, entry))
            continue;
        else if (!strcmp(s.ndx, "COM"))
            rule = "is a common symbol: give it internal linkage (static)";
        else if (!strcmp(s.bind, "WEAK") || !strcmp(s.bind, "UNIQUE")) {
            if (!comdat_style(section_of(sections, s.ndx), s.name))
                rule = "is a weak definition: graded code may not offer to replace a name";
            else if (strncmp(s.name, "_Z", 2) != 0 && strncmp(s.name, "DW.ref.", 7) != 0)
                rule = "is an inline function with a C name, which could stand in for a "
                       "library's: make it static";
            else if (keep)
                fprintf(keep, "%s\n", s.name); /* merged with the same instance elsewhere */
        } else if (emulated ? strcmp(s.vis, "PROTECTED") != 0
                            : !kernel_stub(s.name, copy) &&
                                  !device_function_stub(&s, s.size, sections, relocs)) {
            rule = "has external linkage: make it static (only the entry point and kernels "
                   "may be visible)";
        }
        if (rule) {
            snprintf(why, size, "your file defines %.200s, which %s", s.name, rule);
            verdict = -1;
        }
    }
    if (verdict == 0 && !entry_defined) {
        snprintf(why, size,
                 "your file does not define the entry point %s (an empty file, a misspelled "
                 "name, or static?): define it as the skeleton declares it", entry);
        verdict = -1;
    }
    free(copy);
    return verdict;
}

/* The function that starts at section + addend (or is named so), or "". */
static const char *function_at(const char *symbols, const section_table *sections,
                               const char *target, unsigned long long addend, char *buf,
                               size_t size)
{
    buf[0] = 0;
    char *copy = strdup(symbols), *save = NULL;
    for (char *s = copy ? strtok_r(copy, "\n", &save) : NULL; s; s = strtok_r(NULL, "\n", &save)) {
        elf_symbol sym;
        if (!parse_symbol(s, &sym) || strcmp(sym.type, "FUNC") != 0) continue;
        if (!strcmp(sym.name, target) ||
            (!strcmp(section_of(sections, sym.ndx), target) && sym.value == addend)) {
            snprintf(buf, size, "%s", sym.name);
            break;
        }
    }
    free(copy);
    return buf;
}

/* Code run before main or after exit: sections the loader runs, and every
 * entry of every .init_array section (priorities make .init_array.NNNNN
 * ones) but the compiler's own. */
static int check_startup_code(const section_table *sections, const char *symbols,
                              const char *relocs_text, int emulated, char *why, size_t size)
{
    for (int i = 0; i < sections->n; i++) {
        const char *n = sections->name[i], *t = sections->type[i];
        if (!strcmp(t, "FINI_ARRAY") || !strcmp(t, "PREINIT_ARRAY") || !strncmp(n, ".ctors", 6) ||
            !strncmp(n, ".dtors", 6) || !strcmp(n, ".init") || !strcmp(n, ".fini") ||
            !strncmp(n, ".fini_array", 11) || !strncmp(n, ".preinit_array", 14)) {
            snprintf(why, size, "your file has a %s section: code that runs before main or after "
                     "exit is not allowed", n);
            return -1;
        }
    }
    char *relocs = strdup(relocs_text), *save = NULL;
    if (!relocs) return -1;
    int in_init = 0, verdict = 0;
    for (char *line = strtok_r(relocs, "\n", &save); line && verdict == 0;
         line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "Relocation section", 18)) {
            in_init = strstr(line, ".init_array") != NULL;
            continue;
        }
        if (!in_init) continue;
        char offset[32], info[32], type[64], value[32], target[256] = "";
        if (sscanf(line, "%31s %31s %63s %31s %255s", offset, info, type, value, target) < 5 ||
            strspn(offset, "0123456789abcdef") != strlen(offset))
            continue; /* the column headings */
        const char *plus = strstr(line, " + ");
        unsigned long long addend = plus ? strtoull(plus + 3, NULL, 16) : 0;
        char function[512];
        function_at(symbols, sections, target, addend, function, sizeof function);
        /* nvcc's registration is a static function of this exact name,
         * which the student cannot define beside it. In the emulation,
         * g++'s static initialiser (_GLOBAL__sub_I_...) and the module
         * constructor of -fsanitize=thread (_sub_I_00099_0, which calls
         * __tsan_init, an empty function of the emulation's); the
         * student's lines may use neither prefix (source_rules). */
        int compilers_own = emulated ? !strncmp(function, "_GLOBAL__sub_I_", 15) ||
                                           !strcmp(function, "_sub_I_00099_0")
                                     : !strcmp(function, "_ZL24__sti____cudaRegisterAllv");
        if (!compilers_own) {
            snprintf(why, size, "your file has a constructor (%.200s): code that runs before the "
                     "grader calls your entry point is not allowed; static variables must be "
                     "constants", function[0] ? function : target);
            verdict = -1;
        }
    }
    free(relocs);
    return verdict;
}

static void keep_list_path(const char *scratch, char *buf, size_t size)
{
    snprintf(buf, size, "%s/global-symbols.txt", scratch);
}

int obj_check_definitions(const char *object, const char *entry, int emulated,
                          const char *scratch, char *why, size_t size)
{
    char keep_path[600];
    keep_list_path(scratch, keep_path, sizeof keep_path);
    FILE *keep = fopen(keep_path, "w");
    if (keep) fprintf(keep, "%s\n", entry);
    char *sections_text = readelf("-S", object, scratch, "sections");
    char *symbols = readelf("-s", object, scratch, "symbols");
    char *relocs = readelf("-r", object, scratch, "relocations");
    section_table sections = {0};
    int verdict = -1;
    if (!sections_text || !symbols || !relocs || read_sections(sections_text, &sections) != 0) {
        snprintf(why, size, "readelf could not read the compiled file");
    } else {
        char *work = strdup(symbols);
        verdict = work ? check_symbols(work, &sections, relocs, entry, emulated, keep, why, size)
                       : -1;
        free(work);
        if (verdict == 0)
            verdict = check_startup_code(&sections, symbols, relocs, emulated, why, size);
    }
    free(sections_text);
    free(symbols);
    free(relocs);
    for (int i = 0; sections.name && i < sections.n; i++) free(sections.name[i]);
    free(sections.name);
    free(sections.type);
    if (!keep || fclose(keep) != 0) {
        snprintf(why, size, "cannot write %s", keep_path);
        return -1;
    }
    return verdict;
}

int obj_hide_all_but_entry(const char *object, const char *scratch)
{
    char keep[700], log[600], list[600];
    keep_list_path(scratch, list, sizeof list);
    snprintf(keep, sizeof keep, "--keep-global-symbols=%s", list);
    snprintf(log, sizeof log, "%s/objcopy.log", scratch);
    char *argv[] = {"objcopy", keep, (char *)object, NULL};
    iso_result ir;
    return iso_run(argv, log, 60, &ir) == 0 && ir.exited && ir.exit_code == 0 ? 0 : -1;
}
