/* labs.c - see labs.h. */
#include "labs.h"

#include <stdlib.h>
#include <string.h>

/* A name of digits only is the lab's number: "1" and "01" are lab 01. */
static int is_number(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

const lab_spec *lab_find(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const char *id = LAB_REGISTRY[i]->id;
        if (!strcmp(id, name) || (!strncmp(id, name, n) && id[n] == '-') ||
            (strlen(id) > 3 && !strcmp(id + 3, name)) ||
            (is_number(name) && n <= 2 && atoi(name) == atoi(id)))
            return LAB_REGISTRY[i];
    }
    return NULL;
}
