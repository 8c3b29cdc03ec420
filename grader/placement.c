/* placement.c - see placement.h. */
#include "placement.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The string after "key": " up to its closing quote, at most size - 1
 * characters. Returns the position after it, or NULL. */
static const char *string_after(const char *from, const char *end, const char *key, char *out,
                                size_t size)
{
    const char *p = strstr(from, key);
    if (!p || (end && p >= end)) return NULL;
    p += strlen(key);
    size_t n = 0;
    while (*p && *p != '"' && n + 1 < size) out[n++] = *p++;
    out[n] = 0;
    return *p == '"' ? p + 1 : NULL;
}

int ladder_times_read(const char *path, ladder_times *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    if (!string_after(text, NULL, "\"device\": \"", t->device, sizeof t->device)) return -1;
    const char *p = strstr(text, "\"rungs\": [");
    while (p && t->n < PLACEMENT_MAX_RUNGS && (p = strstr(p, "{\"name\": \""))) {
        const char *end = strchr(p, '}');
        if (!end) break;
        const char *ms = strstr(p, "\"ms\": ");
        char *stop = NULL;
        double v = ms && ms < end ? strtod(ms + 6, &stop) : -1;
        if (string_after(p, end, "{\"name\": \"", t->rung[t->n].name, sizeof t->rung[t->n].name) &&
            stop && stop != ms + 6 && v > 0)
            t->rung[t->n++].ms = v;
        p = end;
    }
    return t->n > 0 ? 0 : -1;
}

void ladder_model_file(const char *device, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "ladder-");
    int dash = 0;
    for (const char *c = device; *c && n + 6 < size; c++) {
        int alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
        if (!alnum) {
            dash = 1;
            continue;
        }
        if (dash && out[n - 1] != '-') out[n++] = '-';
        dash = 0;
        out[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    }
    snprintf(out + n, size - n, ".json");
}

int ladder_times_for(const char *slides_dir, const char *device, ladder_times *t)
{
    char name[160], path[1200];
    ladder_model_file(device, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", slides_dir, name);
    if (ladder_times_read(path, t) == 0 && !strcmp(t->device, device)) return 0;
    snprintf(path, sizeof path, "%s/ladder.json", slides_dir);
    return ladder_times_read(path, t);
}

static int vendor(const char *name)
{
    return !strncmp(name, "vendor_", 7) || !strncmp(name, "cub_", 4) || !strncmp(name, "thrust_", 7);
}

/* Two medians of one call on one GPU model differ by a few percent from
 * run to run: a call this close to a rung's time is level with it. */
#define LEVEL_MARGIN 0.05

void ladder_place(const ladder_times *t, const char *device, double ms, char *out, size_t size)
{
    if (strcmp(t->device, device)) {
        snprintf(out, size, "the ladder was timed on a %s, not this %s: no placement", t->device,
                 device);
        return;
    }
    /* The rung closest in time, when it is within the margin. */
    int level = -1;
    for (int i = 0; i < t->n; i++) {
        double off = fabs(t->rung[i].ms / ms - 1);
        if (off <= LEVEL_MARGIN && (level < 0 || off < fabs(t->rung[level].ms / ms - 1))) level = i;
    }
    /* Else the slowest rung at least as fast as the call, and the fastest
     * rung slower than it. The next step is the slowest own rung clearly
     * faster than the call (and than the rung it is level with). */
    double beat = level >= 0 ? fmin(ms, t->rung[level].ms) : ms;
    int below = -1, above = -1, next = -1;
    for (int i = 0; i < t->n; i++) {
        double r = t->rung[i].ms;
        if (r >= ms && (above < 0 || r < t->rung[above].ms)) above = i;
        if (r < ms && (below < 0 || r > t->rung[below].ms)) below = i;
        int clearly_faster = level >= 0 ? r * (1 + LEVEL_MARGIN) < beat : r < beat;
        if (clearly_faster && !vendor(t->rung[i].name) && (next < 0 || r > t->rung[next].ms))
            next = i;
    }
    int n = 0;
    if (level >= 0)
        n = snprintf(out, size, "level with %s (%.4f ms) on this GPU model", t->rung[level].name,
                     t->rung[level].ms);
    else if (above < 0)
        n = snprintf(out, size, "slower than every rung timed on this GPU model (the slowest, %s, "
                                "%.4f ms)", t->rung[below].name, t->rung[below].ms);
    else if (below < 0)
        n = snprintf(out, size, "faster than every rung timed on this GPU model (the fastest, %s, "
                                "%.4f ms)", t->rung[above].name, t->rung[above].ms);
    else
        n = snprintf(out, size, "between %s (%.4f ms) and %s (%.4f ms) on this GPU model",
                     t->rung[above].name, t->rung[above].ms, t->rung[below].name,
                     t->rung[below].ms);
    if (next >= 0 && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "; the next rung: %s (see the README's ladder)",
                 t->rung[next].name);
}
