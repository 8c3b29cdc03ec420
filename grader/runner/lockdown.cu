/* lockdown.cu - the runner's sandbox, closed before any student code runs.
 *
 * The runner shares its process with the submission, so once the CUDA
 * context, the grader's stream and the response file exist, a seccomp
 * filter takes away what graded code has no business doing. It is put
 * on every thread of the process at once, the CUDA libraries' own threads
 * too, is inherited by every thread created afterwards, and no filter can
 * be removed once set.
 *
 *   stopped (SIGSYS, reported):  starting or changing processes (fork,
 *       clone without CLONE_THREAD, exec, setsid, setpgid, ptrace, reading
 *       or writing another process's memory, signalling another process),
 *       namespaces, mounts, kernel modules, BPF, io_uring (which could open
 *       files behind the filter's back), raising limits, changing users;
 *   refused (EACCES): opening, creating, renaming or deleting files,
 *       sockets and connections. The CUDA libraries may still try some of
 *       these on their own; they see an ordinary error.
 *
 * Everything else (memory, ioctl on the GPU's device files, futexes,
 * clocks, writing to descriptors already open) stays allowed: the driver
 * needs it.
 *
 * The thread that runs graded code (fence.cu) adds a second filter of its
 * own, lockdown_fence: no touching the response file (or the file through
 * which the runner watches that thread), no threads, no signal handlers,
 * no new filters, no remapping of the runner's own executable.
 * grader/SECURITY.md says what this stops and what it cannot.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner.h"

#ifndef PR_SET_SECCOMP
#define PR_SET_SECCOMP 22
#endif

#if defined(__x86_64__)
#define LOCKDOWN_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define LOCKDOWN_ARCH AUDIT_ARCH_AARCH64
#endif

typedef struct {
    long nr;
    const char *name, *why;
} denied_call;

#define DENY(call, why) {__NR_##call, #call, why}
static const char START[] = "starts or changes processes";
static const char REACH[] = "reaches into another process";
static const char SYSTEM[] = "changes the machine";

/* Stopped at once, with a report. */
static const denied_call STOPPED[] = {
#ifdef __NR_fork
    DENY(fork, START), DENY(vfork, START),
#endif
    DENY(execve, START), DENY(execveat, START), DENY(setsid, START), DENY(setpgid, START),
    DENY(unshare, START), DENY(setns, START),
    DENY(ptrace, REACH), DENY(process_vm_readv, REACH), DENY(process_vm_writev, REACH),
#ifdef __NR_pidfd_getfd
    DENY(pidfd_open, REACH), DENY(pidfd_getfd, REACH), DENY(pidfd_send_signal, REACH),
#endif
    DENY(kcmp, REACH), DENY(tkill, REACH), DENY(rt_sigqueueinfo, REACH),
    DENY(rt_tgsigqueueinfo, REACH),
    DENY(io_uring_setup, "opens files behind the sandbox"),
    DENY(io_uring_enter, "opens files behind the sandbox"),
    DENY(io_uring_register, "opens files behind the sandbox"),
    DENY(mount, SYSTEM), DENY(umount2, SYSTEM), DENY(pivot_root, SYSTEM), DENY(chroot, SYSTEM),
    DENY(reboot, SYSTEM), DENY(kexec_load, SYSTEM), DENY(init_module, SYSTEM),
    DENY(finit_module, SYSTEM), DENY(delete_module, SYSTEM), DENY(bpf, SYSTEM),
    DENY(perf_event_open, SYSTEM), DENY(keyctl, SYSTEM), DENY(add_key, SYSTEM),
    DENY(request_key, SYSTEM), DENY(userfaultfd, SYSTEM), DENY(swapon, SYSTEM),
    DENY(swapoff, SYSTEM), DENY(sethostname, SYSTEM), DENY(setdomainname, SYSTEM),
    DENY(acct, SYSTEM), DENY(quotactl, SYSTEM), DENY(syslog, SYSTEM), DENY(vhangup, SYSTEM),
    DENY(setuid, SYSTEM), DENY(setgid, SYSTEM), DENY(setreuid, SYSTEM), DENY(setregid, SYSTEM),
    DENY(setresuid, SYSTEM), DENY(setresgid, SYSTEM), DENY(setfsuid, SYSTEM),
    DENY(setfsgid, SYSTEM), DENY(setgroups, SYSTEM), DENY(capset, SYSTEM),
    DENY(personality, SYSTEM), DENY(name_to_handle_at, SYSTEM),
    DENY(open_by_handle_at, SYSTEM), DENY(fanotify_init, SYSTEM),
#ifdef __NR_setrlimit
    DENY(setrlimit, SYSTEM),
#endif
#ifdef __NR_iopl
    DENY(iopl, SYSTEM), DENY(ioperm, SYSTEM),
#endif
};

/* Refused with EACCES. */
static const long REFUSED[] = {
#ifdef __NR_open
    __NR_open, __NR_creat, __NR_unlink, __NR_rename, __NR_link, __NR_symlink, __NR_mkdir,
    __NR_rmdir, __NR_mknod, __NR_chmod, __NR_chown, __NR_lchown, __NR_utime, __NR_utimes,
    __NR_futimesat,
#endif
#ifdef __NR_openat2
    __NR_openat2,
#endif
    __NR_openat, __NR_truncate, __NR_ftruncate, __NR_unlinkat, __NR_renameat,
    __NR_renameat2, __NR_linkat, __NR_symlinkat, __NR_mkdirat, __NR_mknodat, __NR_fchmod,
    __NR_fchmodat, __NR_fchown, __NR_fchownat, __NR_utimensat, __NR_socket, __NR_socketpair,
    __NR_connect, __NR_bind, __NR_listen, __NR_accept, __NR_accept4,
};

/* Stopped only with some arguments (the filter below says which). */
static const denied_call STOPPED_SOMETIMES[] = {
    {__NR_clone, "clone", START}, {__NR_kill, "kill", REACH}, {__NR_tgkill, "tgkill", REACH},
    {__NR_rt_sigaction, "rt_sigaction(SIGSYS)", "takes over the sandbox's own signal"},
    {__NR_prlimit64, "prlimit64", SYSTEM},
};

/* The fence: stopped on the thread that runs graded code, whatever the
 * arguments. */
static const char FILE_WHY[] = "touches the grader's response file (only the grader writes there)";
static const denied_call FENCED[] = {
    {__NR_clone, "clone", "starts a thread: graded code runs on the one thread the grader gives it"},
    {__NR_rt_sigaction, "rt_sigaction", "installs a signal handler, which could run on the grader's thread"},
    {__NR_seccomp, "seccomp", "changes the sandbox"},
    {__NR_prctl, "prctl(PR_SET_SECCOMP)", "changes the sandbox"},
#ifdef __NR_close_range
    {__NR_close_range, "close_range", "closes the grader's files"},
#endif
};

/* ... and when the argument at `arg` is the response file's descriptor. */
typedef struct {
    long nr;
    const char *name;
    int arg;
} fd_call;
#define FD_CALL(call, arg) {__NR_##call, #call, arg}
static const fd_call FENCED_FD[] = {
    FD_CALL(write, 0), FD_CALL(pwrite64, 0), FD_CALL(writev, 0), FD_CALL(pwritev, 0),
#ifdef __NR_pwritev2
    FD_CALL(pwritev2, 0),
#endif
    FD_CALL(lseek, 0), FD_CALL(close, 0), FD_CALL(fcntl, 0), FD_CALL(ftruncate, 0),
    FD_CALL(fallocate, 0), FD_CALL(fsync, 0), FD_CALL(fdatasync, 0), FD_CALL(flock, 0),
    FD_CALL(ioctl, 0), FD_CALL(sendfile, 0), FD_CALL(dup, 0), FD_CALL(dup3, 0), FD_CALL(dup3, 1),
#ifdef __NR_dup2
    FD_CALL(dup2, 0), FD_CALL(dup2, 1),
#endif
    FD_CALL(splice, 2), FD_CALL(tee, 1), FD_CALL(copy_file_range, 2), FD_CALL(mmap, 4),
};

/* ... and when the address at `arg` lies in the runner's own executable
 * (its code, its read-only GOT, its data) or below it: making the GOT or
 * the code writable again, or mapping fresh pages over them, would let
 * graded code plant a function the runner's own thread calls later.
 * Everything graded code and the CUDA libraries map lies above the
 * executable's end (the heap follows it, libraries and mappings sit
 * higher still), so the filter only needs the one bound. `zero_ok`: 0 is
 * "anywhere" (mmap's hint), not an address. */
typedef struct {
    long nr;
    const char *name;
    int arg, zero_ok;
} image_call;
static const char IMAGE_WHY[] = "changes how the grader's own code and data are mapped";
static const image_call FENCED_IMAGE[] = {
    {__NR_mprotect, "mprotect", 0, 0}, {__NR_pkey_mprotect, "pkey_mprotect", 0, 0},
    {__NR_munmap, "munmap", 0, 0},     {__NR_mremap, "mremap", 0, 0},
    {__NR_mremap, "mremap", 4, 1},     {__NR_madvise, "madvise", 0, 0},
    {__NR_mmap, "mmap", 0, 1},         {__NR_shmat, "shmat", 1, 1},
#ifdef __NR_remap_file_pages
    {__NR_remap_file_pages, "remap_file_pages", 0, 0},
#endif
};

enum {
    N_STOPPED = sizeof STOPPED / sizeof *STOPPED,
    N_SOMETIMES = sizeof STOPPED_SOMETIMES / sizeof *STOPPED_SOMETIMES,
    N_REFUSED = sizeof REFUSED / sizeof *REFUSED,
    N_FENCED = sizeof FENCED / sizeof *FENCED,
    N_FENCED_FD = sizeof FENCED_FD / sizeof *FENCED_FD,
    N_FENCED_IMAGE = sizeof FENCED_IMAGE / sizeof *FENCED_IMAGE
};

static int response_fd = -1;

/* Async-signal-safe enough for a process about to end: one record, then
 * _exit; on the fenced thread, which may not write it, the message goes to
 * the runner's thread (fence_fail). The handler cannot be replaced
 * (rt_sigaction on SIGSYS is itself stopped) and the filter cannot be
 * lifted. */
static void on_denied_call(int, siginfo_t *info, void *)
{
    denied_call call = {info->si_syscall, "a forbidden call", "is outside what graded code may do"};
    for (int i = 0; i < N_STOPPED; i++)
        if (STOPPED[i].nr == call.nr) call = STOPPED[i];
    for (int i = 0; i < N_SOMETIMES; i++)
        if (STOPPED_SOMETIMES[i].nr == call.nr) call = STOPPED_SOMETIMES[i];
    if (fence_here()) {
        for (int i = 0; i < N_FENCED_FD; i++)
            if (FENCED_FD[i].nr == call.nr) call = {call.nr, FENCED_FD[i].name, FILE_WHY};
        for (int i = 0; i < N_FENCED_IMAGE; i++)
            if (FENCED_IMAGE[i].nr == call.nr) call = {call.nr, FENCED_IMAGE[i].name, IMAGE_WHY};
        for (int i = 0; i < N_FENCED; i++)
            if (FENCED[i].nr == call.nr) call = FENCED[i];
    }
    struct {
        proto_rec_head head;
        proto_fatal fatal;
    } rec;
    memset(&rec, 0, sizeof rec);
    rec.head.magic = PROTO_MAGIC;
    rec.head.kind = REC_FATAL;
    rec.head.call_index = -1;
    snprintf(rec.fatal.message, sizeof rec.fatal.message,
             "%s%s (system call %ld), which %s: graded code may only compute", LOCKDOWN_FATAL,
             call.name, call.nr, call.why);
    if (fence_here()) fence_fail(RUNNER_EXIT_SANDBOX, rec.fatal.message);
    if (response_fd >= 0) {
        ssize_t unused = write(response_fd, &rec, sizeof rec);
        (void)unused;
    }
    _exit(RUNNER_EXIT_SANDBOX);
}

/* Offsets into struct seccomp_data. */
enum {
    AT_NR = offsetof(struct seccomp_data, nr),
    AT_ARCH = offsetof(struct seccomp_data, arch),
    AT_ARG0 = offsetof(struct seccomp_data, args[0]),
    AT_ARG2 = offsetof(struct seccomp_data, args[2]),
};
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { LOW = 0, HIGH = 4 };
#else
enum { LOW = 4, HIGH = 0 };
#endif

typedef struct {
    int n;
    struct sock_filter f[512];
} program;

static void op(program *p, unsigned short code, unsigned k, unsigned char jt, unsigned char jf)
{
    int at = p->n++; /* too long: install() refuses it */
    if (at >= 0 && at < (int)(sizeof p->f / sizeof *p->f)) p->f[at] = (struct sock_filter){code, jt, jf, k};
}
static void load(program *p, unsigned at) { op(p, BPF_LD | BPF_W | BPF_ABS, at, 0, 0); }
static void ret(program *p, unsigned what) { op(p, BPF_RET | BPF_K, what, 0, 0); }
/* if (A == k) return what; */
static void if_eq_ret(program *p, unsigned k, unsigned what)
{
    op(p, BPF_JMP | BPF_JEQ | BPF_K, k, 0, 1);
    ret(p, what);
}

static const unsigned ALLOW = SECCOMP_RET_ALLOW, TRAP = SECCOMP_RET_TRAP;

/* A call allowed only when its first argument (a pid) is this process:
 * nr == A ? (arg0 == pid ? allow : trap) : go on. */
static void only_self(program *p, long nr, unsigned pid)
{
    op(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 6);
    load(p, AT_ARG0 + HIGH);
    op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);
    load(p, AT_ARG0 + LOW);
    op(p, BPF_JMP | BPF_JEQ | BPF_K, pid, 1, 0);
    ret(p, TRAP);
    ret(p, ALLOW);
    load(p, AT_NR);
}

/* if (nr == A && (unsigned)arg == value) trap; -- the low word only: the
 * kernel reads an int descriptor from it and ignores the rest. */
static void trap_if_arg(program *p, long nr, int arg, unsigned value)
{
    op(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 3);
    load(p, (unsigned)(AT_ARG0 + arg * sizeof(__u64)) + LOW);
    op(p, BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
    ret(p, TRAP);
    load(p, AT_NR);
}

/* if (nr == A && arg lies below `limit` (and is not 0, when zero_ok))
 * trap; -- all 64 bits of the address, high word first. */
static void trap_if_below(program *p, long nr, int arg, uint64_t limit, int zero_ok)
{
    const unsigned hi = (unsigned)(limit >> 32), lo = (unsigned)limit;
    const unsigned at = (unsigned)(AT_ARG0 + arg * sizeof(__u64));
    /* Instructions, counted from the JEQ on nr: 0 jeq nr, 1 ld hi, 2 jgt hi,
     * 3 jeq hi, 4 ld lo, 5 jge lo, [6 jeq 0 (hi), 7 ld lo, 8 jeq 0 (lo)],
     * trap, end (ld nr). Jumps count from the next instruction. */
    const int trap = zero_ok ? 9 : 6, end = trap + 1;
    op(p, BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, (unsigned char)(end - 1));
    load(p, at + HIGH);
    op(p, BPF_JMP | BPF_JGT | BPF_K, hi, (unsigned char)(end - 3), 0);
    op(p, BPF_JMP | BPF_JEQ | BPF_K, hi, 0, (unsigned char)((zero_ok ? 6 : trap) - 4));
    load(p, at + LOW);
    /* Below in the low word; with the same high word, 0 only when that is 0. */
    op(p, BPF_JMP | BPF_JGE | BPF_K, lo, (unsigned char)(end - 6),
       (unsigned char)((zero_ok && hi == 0 ? 8 : trap) - 6));
    if (zero_ok) {
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, (unsigned char)(trap - 7)); /* hi == 0? */
        load(p, at + LOW);
        op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, (unsigned char)(end - 9), 0);
    }
    ret(p, TRAP);
    load(p, AT_NR);
}

/* `every_thread`: onto every thread of the process at once (TSYNC), not
 * only the calling one. The CUDA libraries start threads of their own
 * while CUDA comes up, before the sandbox closes; without it those would
 * run with no filter at all, and a host function the driver calls there
 * (a stream callback, however graded code got the driver to queue it)
 * could open files, start processes or signal the grader. */
static const char *install(program *p, int every_thread)
{
    if (p->n > (int)(sizeof p->f / sizeof *p->f)) return "the filter is too long";
    struct sock_fprog prog = {(unsigned short)p->n, p->f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return strerror(errno);
    if (every_thread) {
        /* No fallback to prctl, which knows no flags: a filter that missed
         * the CUDA libraries' threads would not be the sandbox. */
        long r = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
        if (r > 0) return "a thread of the process could not take the filter";
        return r == 0 ? NULL : strerror(errno);
    }
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0 &&
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        return strerror(errno);
    return NULL;
}

/* The end of the runner's executable (code, GOT, data, bss), from the
 * linker. */
extern "C" char _end[];

const char *lockdown_fence(int watched_fd)
{
#ifndef LOCKDOWN_ARCH
    (void)watched_fd;
    return "this processor is not one the sandbox knows (x86-64, arm64)";
#else
    if (response_fd < 0) return "the sandbox is not closed yet";
    /* This thread's stack was mapped by the C library: in the usual layout
     * every mapping lies above the executable, which the image rules rely
     * on. An unlimited stack limit or vm.legacy_va_layout puts mappings
     * below it (the grader lowers an unlimited stack limit for its
     * children, grader/isolate.c). */
    int here;
    if ((uintptr_t)&here < (uintptr_t)_end)
        return "memory is laid out the old way (mappings below the program: is "
               "vm.legacy_va_layout set?)";
    /* This thread started before the process's filter was closed
     * (fence_start) and took it then, with every other thread (TSYNC). */
    static program p;
    p.n = 0;
    load(&p, AT_NR);
    for (int i = 0; i < N_FENCED_FD; i++) {
        trap_if_arg(&p, FENCED_FD[i].nr, FENCED_FD[i].arg, (unsigned)response_fd);
        if (watched_fd >= 0)
            trap_if_arg(&p, FENCED_FD[i].nr, FENCED_FD[i].arg, (unsigned)watched_fd);
    }
    for (int i = 0; i < N_FENCED_IMAGE; i++)
        trap_if_below(&p, FENCED_IMAGE[i].nr, FENCED_IMAGE[i].arg, (uintptr_t)_end,
                      FENCED_IMAGE[i].zero_ok);
    trap_if_arg(&p, __NR_prctl, 0, PR_SET_SECCOMP);
    for (int i = 0; i < N_FENCED; i++)
        if (FENCED[i].nr != __NR_prctl) if_eq_ret(&p, (unsigned)FENCED[i].nr, TRAP);
    ret(&p, ALLOW);
    return install(&p, 0);
#endif
}

const char *lockdown(int response)
{
#ifndef LOCKDOWN_ARCH
    (void)response;
    return "this processor is not one the sandbox knows (x86-64, arm64)";
#else
    response_fd = response;
    static program p;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_denied_call;
    sa.sa_flags = SA_SIGINFO;
    if (sigaction(SIGSYS, &sa, NULL) != 0) return "cannot catch SIGSYS";

    p.n = 0;
    load(&p, AT_ARCH);
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, LOCKDOWN_ARCH, 1, 0);
    ret(&p, SECCOMP_RET_KILL_PROCESS);
    load(&p, AT_NR);
#if defined(__x86_64__)
    /* The x32 numbering would slip past every number below. */
    op(&p, BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
    ret(&p, TRAP);
#endif
    for (int i = 0; i < N_STOPPED; i++) if_eq_ret(&p, (unsigned)STOPPED[i].nr, TRAP);
    for (int i = 0; i < N_REFUSED; i++)
        if_eq_ret(&p, (unsigned)REFUSED[i], SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA));
    /* clone3 passes its flags in memory the filter cannot read: glibc falls
     * back to clone, whose flags it can. */
#ifdef __NR_clone3
    if_eq_ret(&p, __NR_clone3, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
#endif
    /* clone: threads only. */
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4);
    load(&p, AT_ARG0 + LOW);
    op(&p, BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
    ret(&p, ALLOW);
    ret(&p, TRAP);
    /* Signals: to this process only. */
    unsigned pid = (unsigned)getpid();
    only_self(&p, __NR_kill, pid);
    only_self(&p, __NR_tgkill, pid);
    /* SIGSYS stays the sandbox's. */
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigaction, 0, 4);
    load(&p, AT_ARG0 + LOW);
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, SIGSYS, 0, 1);
    ret(&p, TRAP);
    load(&p, AT_NR);
    /* Limits may be read, never set. */
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, __NR_prlimit64, 0, 6);
    load(&p, AT_ARG2 + LOW);
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);
    load(&p, AT_ARG2 + HIGH);
    op(&p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0);
    ret(&p, TRAP);
    ret(&p, ALLOW);
    ret(&p, ALLOW);
    return install(&p, 1);
#endif
}
