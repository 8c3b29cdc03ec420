/* class.h - what every part of the batch tool shares: the stages and the
 * exit codes. */
#ifndef CLASS_H
#define CLASS_H

enum { CLS_WORK, CLS_RIGHT, CLS_FAST, CLS_STAGES };

/* "work", "right", "fast"; -1 for anything else. */
extern const char *const CLS_STAGE_NAMES[CLS_STAGES];
int cls_stage_index(const char *name);

/* 0 done; 1 done, but some students' grading itself failed (the grader
 * died or timed out: look, then --retry-errors); 2 usage or I/O error. */
enum { CLS_EXIT_OK = 0, CLS_EXIT_ERRORS = 1, CLS_EXIT_USAGE = 2 };

#endif
