/* batch.h - `class batch`, `class slurm`, `class merge`, `class report`:
 * each subcommand takes the arguments after its name and returns an exit
 * code (class.h). */
#ifndef CLASS_BATCH_H
#define CLASS_BATCH_H

#include "class.h"
#include "text.h"

typedef struct {
    const char *lab, *submissions, *out, *root, *grader_cmd, *course, *gpus, *student_file;
    double timeout_s, mem_limit_mb, jobs, chunk, chunk_index, expect;
    int force, retry_errors, has_chunk, has_expect;
} bat_options;

int bat_main(int argc, char **argv);
/* The grader's command line as `make grade-command LAB=lab_id` spells it
 * in root (which builds the lab first), without SUBMISSION and RESULTS:
 * the batch adds --submission, --results and --mem-limit-mb to it. */
int bat_grader_command(const char *root, const char *lab_id, strbuf *out);
int slurm_main(int argc, char **argv);
int merge_main(int argc, char **argv);
int report_main(int argc, char **argv);

#endif
