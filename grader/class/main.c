/* main.c - class: grade a whole class with the workbook's grader.
 *
 *   class batch   grade a folder of submissions for one lab
 *   class report  Gradescope, JUnit, CSV or summary from saved results
 *   class slurm   write a Slurm job array that grades a class in chunks
 *   class merge   join batch folders (the array's tasks) into one summary
 *
 * grader/class/README.md is the instructor's guide.
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"batch", bat_main}, {"report", report_main}, {"slurm", slurm_main}, {"merge", merge_main}};
    if (argc >= 2)
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr,
            "usage: class batch|report|slurm|merge [options]   (class COMMAND alone: its options)\n"
            "  batch   grade every student in a folder for one lab, resumable\n"
            "  report  gradescope, junit, csv or summary from saved results\n"
            "  slurm   write a Slurm job array that grades a class in chunks\n"
            "  merge   join batch folders into one summary (latest result wins)\n"
            "See grader/class/README.md.\n");
    return CLS_EXIT_USAGE;
}
