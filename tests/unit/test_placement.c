/* test_placement.c - where a timed call sits on the lab's ladder. */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "placement.h"

static const char *const H100 = "NVIDIA H100 80GB HBM3";

/* The shape `make ladder` writes, with three rungs and a vendor mark. */
static int sample(ladder_times *t)
{
    const char *path = "/tmp/cudalab-test-ladder.json";
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\"lab\": \"07-matmul\", \"device\": \"%s\", \"dims\": [4096, 4096, 4096], "
               "\"rungs\": [\n"
               "  {\"name\": \"v1_naive\", \"right\": true, \"ms\": 31.2, \"step_speedup\": null},\n"
               "  {\"name\": \"v2_shared_tiles\", \"right\": true, \"ms\": 15.6},\n"
               "  {\"name\": \"v5_double_buffered\", \"right\": true, \"ms\": 3.34},\n"
               "  {\"name\": \"vendor_cublas_sgemm\", \"right\": true, \"ms\": 2.76}\n]}\n",
            H100);
    fclose(f);
    int r = ladder_times_read(path, t);
    remove(path);
    return r;
}

static void ladder_file_is_read(void)
{
    ladder_times t;
    CHECK(sample(&t) == 0);
    CHECK(strcmp(t.device, H100) == 0);
    CHECK(t.n == 4);
    CHECK(strcmp(t.rung[1].name, "v2_shared_tiles") == 0 && t.rung[1].ms == 15.6);
    CHECK(strcmp(t.rung[3].name, "vendor_cublas_sgemm") == 0 && t.rung[3].ms == 2.76);
    CHECK(ladder_times_read("/nonexistent/ladder.json", &t) == -1);
}

/* Every lab's measured ladder is in the shape the reader knows. */
static void the_labs_ladders_are_read(void)
{
    ladder_times t;
    CHECK(ladder_times_read("labs/07-matmul/slides/ladder.json", &t) == 0);
    CHECK(t.n == 9 && strcmp(t.rung[0].name, "v1_naive") == 0 && t.rung[0].ms > 1);
    CHECK(ladder_times_read("labs/01-vector-add/slides/ladder.json", &t) == 0 && t.n >= 3);
}

/* Where the sample ladder places a call of ms on device; NULL when the
 * sample cannot be read. */
static const char *placed(const char *device, double ms)
{
    static char line[400];
    ladder_times t;
    if (sample(&t) != 0) return NULL;
    ladder_place(&t, device, ms, line, sizeof line);
    return line;
}

static void a_call_between_rungs_gets_the_next_one(void)
{
    const char *line = placed(H100, 9.0);
    CHECK(line);
    CHECK(strstr(line, "between v2_shared_tiles (15.6000 ms) and v5_double_buffered (3.3400 ms)"));
    CHECK(strstr(line, "the next rung: v5_double_buffered"));
}

static void a_vendor_library_is_a_mark_not_a_step(void)
{
    const char *line = placed(H100, 3.0);
    CHECK(line);
    CHECK(strstr(line, "between v5_double_buffered (3.3400 ms) and vendor_cublas_sgemm"));
    CHECK(!strstr(line, "next rung"));
    line = placed(H100, 2.0);
    CHECK(strstr(line, "faster than every rung") && strstr(line, "vendor_cublas_sgemm"));
    line = placed(H100, 40.0);
    CHECK(strstr(line, "slower than every rung") && strstr(line, "v1_naive"));
    CHECK(strstr(line, "the next rung: v1_naive"));
}

/* Within a few percent of a rung, a call is level with it (medians differ
 * that much from run to run), and the next rung is one clearly faster. */
static void a_call_close_to_a_rung_is_level_with_it(void)
{
    const char *line = placed(H100, 15.9);
    CHECK(line);
    CHECK(strstr(line, "level with v2_shared_tiles (15.6000 ms)"));
    CHECK(strstr(line, "the next rung: v5_double_buffered"));
    line = placed(H100, 3.25); /* a little faster than v5: level, not past it */
    CHECK(strstr(line, "level with v5_double_buffered (3.3400 ms)") && !strstr(line, "between"));
    CHECK(!strstr(line, "next rung"));
    line = placed(H100, 3.6); /* 8% slower: still below it */
    CHECK(strstr(line, "between v2_shared_tiles") && strstr(line, "the next rung: v5_double_buffered"));
}

static void another_gpu_gets_no_placement(void)
{
    const char *line = placed("NVIDIA A100-SXM4-40GB", 9.0);
    CHECK(line);
    CHECK(strstr(line, "timed on a NVIDIA H100 80GB HBM3, not this NVIDIA A100-SXM4-40GB"));
    CHECK(!strstr(line, "between"));
}

static void a_model_gets_a_file_name(void)
{
    char name[160];
    ladder_model_file("NVIDIA H200", name, sizeof name);
    CHECK(strcmp(name, "ladder-nvidia-h200.json") == 0);
    ladder_model_file(H100, name, sizeof name);
    CHECK(strcmp(name, "ladder-nvidia-h100-80gb-hbm3.json") == 0);
    ladder_model_file(" GeForce RTX  4090 (x)", name, sizeof name);
    CHECK(strcmp(name, "ladder-geforce-rtx-4090-x.json") == 0);
}

/* Every lab's ladder for another GPU model is read, and named as the
 * grader looks for it on the device it records. */
static void every_models_ladder_is_named_after_its_device(void)
{
    glob_t files;
    if (glob("labs/*/slides/ladder-*.json", 0, NULL, &files) != 0) return; /* none */
    for (size_t i = 0; i < files.gl_pathc; i++) {
        const char *path = files.gl_pathv[i], *base = strrchr(path, '/') + 1;
        ladder_times t;
        char name[160] = "";
        if (ladder_times_read(path, &t) == 0) ladder_model_file(t.device, name, sizeof name);
        if (strcmp(name, base)) fprintf(stderr, "  %s: its device's file is '%s'\n", path, name);
        CHECK(strcmp(name, base) == 0);
    }
    globfree(&files);
}

/* A ladder timed on this model is taken before the slides' ladder.json,
 * which is taken when there is none, or when the model's file holds
 * another GPU's figures. */
static void the_ladder_of_this_model_comes_first(void)
{
    const char *dir = "/tmp/cudalab-test-ladders";
    char path[256];
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/ladder.json", dir);
    FILE *f = fopen(path, "w");
    CHECK(f);
    if (!f) return;
    fprintf(f, "{\"device\": \"%s\", \"rungs\": [{\"name\": \"v1_slides\", \"ms\": 2.0}]}\n", H100);
    fclose(f);
    ladder_times t;
    CHECK(ladder_times_for(dir, "NVIDIA H200", &t) == 0 && !strcmp(t.rung[0].name, "v1_slides"));
    snprintf(path, sizeof path, "%s/ladder-nvidia-h200.json", dir);
    f = fopen(path, "w");
    CHECK(f);
    if (!f) return;
    fprintf(f, "{\"device\": \"NVIDIA H200\", \"rungs\": [{\"name\": \"v1_h200\", \"ms\": 1.5}]}\n");
    fclose(f);
    CHECK(ladder_times_for(dir, "NVIDIA H200", &t) == 0 && !strcmp(t.rung[0].name, "v1_h200"));
    CHECK(ladder_times_for(dir, H100, &t) == 0 && !strcmp(t.rung[0].name, "v1_slides"));
    f = fopen(path, "w"); /* the file of the H200 with an H100's figures */
    CHECK(f);
    if (!f) return;
    fprintf(f, "{\"device\": \"%s\", \"rungs\": [{\"name\": \"v1_h200\", \"ms\": 1.5}]}\n", H100);
    fclose(f);
    CHECK(ladder_times_for(dir, "NVIDIA H200", &t) == 0 && !strcmp(t.rung[0].name, "v1_slides"));
    remove(path);
    snprintf(path, sizeof path, "%s/ladder.json", dir);
    remove(path);
    rmdir(dir);
    CHECK(ladder_times_for(dir, "NVIDIA H200", &t) == -1);
}

const unit_test placement_tests[] = {
    TEST(a_model_gets_a_file_name),
    TEST(the_ladder_of_this_model_comes_first),
    TEST(every_models_ladder_is_named_after_its_device),
    TEST(ladder_file_is_read),
    TEST(the_labs_ladders_are_read),
    TEST(a_call_between_rungs_gets_the_next_one),
    TEST(a_vendor_library_is_a_mark_not_a_step),
    TEST(a_call_close_to_a_rung_is_level_with_it),
    TEST(another_gpu_gets_no_placement),
};
const int placement_tests_count = sizeof placement_tests / sizeof placement_tests[0];
