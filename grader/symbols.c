/* symbols.c - see symbols.h. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "symbols.h"

/* What the compiler itself emits around kernels and C++ code. */
static const char *const SUPPORT_PREFIXES[] = {
    "__cuda", "__cxa_", "_Unwind_", "__gxx_personality", "__stack_chk_fail", "__dso_handle",
    "_GLOBAL_OFFSET_TABLE_", "operator new", "operator delete", "std::terminate",
    "std::__throw_", "__assert_fail", "__printf_chk", "__fprintf_chk", "__snprintf_chk",
    "__sprintf_chk", "__memcpy_chk", "__memset_chk", "__memmove_chk", "__isnan", "__isinf",
    "__fpclassify", "__signbit", "__finite", "std::ios_base_library_init",
    /* libgcc's arithmetic, which the host compiler calls for what the
     * processor lacks: bit counts (__popc in the CPU emulation, on an
     * x86-64 without popcnt), 128-bit integers, complex products,
     * integer powers. */
    "__popcount", "__parity", "__clz", "__ctz", "__ffs", "__divti3", "__udivti3",
    "__modti3", "__umodti3", "__divmodti4", "__udivmodti4", "__mulsc3", "__muldc3",
    "__divsc3", "__divdc3", "__powisf2", "__powidf2", NULL};

/* exit and abort only end the child that runs the submission: the grader
 * then reports a crash (nvcc's own registration code may call exit). */
static const char *const LIBC_NAMES[] = {
    "atexit", "abort", "exit", "_exit", "memcpy", "memset", "memmove", "memcmp", "strlen",
    "strcmp", "malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc", "printf", "fprintf",
    "puts", "putchar", "fputs", "fputc", "fwrite", "fflush", "snprintf", "sprintf", "vprintf",
    "vfprintf", "stderr", "stdout", NULL};

/* The C math library: each name also with an f or l suffix. */
static const char *const MATH_NAMES[] = {
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin",
    "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "erf", "erfc",
    "ceil", "floor", "round", "lround", "llround", "trunc", "fabs", "fmin", "fmax", "fmod",
    "remainder", "ldexp", "frexp", "nextafter", "hypot", "rint", "lrint", "nearbyint",
    "copysign", "modf", "fma", "ilogb", "logb", "scalbn", NULL};

static const char HOST_CALLBACK[] =
    "has the CUDA driver call host code later, on a thread outside the grader's sandbox";

static const char HOST_REGISTER[] =
    "lets the GPU write host memory that is not yours, such as the grader's (for pinned "
    "memory of your own, use cudaMallocHost)";
static const char OUTSIDE_MEMORY[] = "shares memory with other processes";
/* A pointer to any driver call by its name, the refused ones too (the
 * driver's cuLaunchHostFunc for the runtime's cudaLaunchHostFunc). */
static const char DRIVER_CALLS[] =
    "hands out the CUDA driver's own calls, past the list of calls graded code may make";

/* Runtime calls that are CUDA, but not for graded code. */
static const struct { const char *name, *why; } CUDA_DENIED[] = {
    {"cudaDeviceReset", "resets the GPU the grader is using"},
    {"cudaThreadExit", "resets the GPU the grader is using"},
    {"cudaSetDevice", "chooses a GPU: use the current one"},
    {"cudaEventElapsedTime", "times itself: the grader does the timing"},
    /* Host code the driver would call later, on a thread of its own, where
     * the grader's fence does not reach (grader/runner/fence.cu). */
    {"cudaLaunchHostFunc", HOST_CALLBACK},
    {"cudaLaunchHostFunc_ptsz", HOST_CALLBACK},
    {"cudaStreamAddCallback", HOST_CALLBACK},
    {"cudaStreamAddCallback_ptsz", HOST_CALLBACK},
    {"cudaGraphAddHostNode", HOST_CALLBACK},
    {"cudaGraphHostNodeSetParams", HOST_CALLBACK},
    {"cudaGraphExecHostNodeSetParams", HOST_CALLBACK},
    {"cudaGraphAddNode", HOST_CALLBACK},
    {"cudaGraphAddNode_v2", HOST_CALLBACK},
    {"cudaGraphNodeSetParams", HOST_CALLBACK},
    {"cudaGraphExecNodeSetParams", HOST_CALLBACK},
    {"cudaUserObjectCreate", HOST_CALLBACK},
    {"cudaLogsRegisterCallback", HOST_CALLBACK},
    {"cudaDeviceRegisterAsyncNotification", HOST_CALLBACK},
    {"cudaGetDriverEntryPoint", DRIVER_CALLS},
    {"cudaGetDriverEntryPoint_ptsz", DRIVER_CALLS},
    {"cudaGetDriverEntryPointByVersion", DRIVER_CALLS},
    {"cudaGetDriverEntryPointByVersion_ptsz", DRIVER_CALLS},
    {"cudaGetExportTable", DRIVER_CALLS},
    /* Memory of the process the GPU could write while the runner runs. */
    {"cudaHostRegister", HOST_REGISTER},
    {"cudaImportExternalMemory", OUTSIDE_MEMORY},
    {"cudaImportExternalSemaphore", OUTSIDE_MEMORY},
    {"cudaIpcGetMemHandle", OUTSIDE_MEMORY},
    {"cudaIpcOpenMemHandle", OUTSIDE_MEMORY},
    {"cudaIpcGetEventHandle", OUTSIDE_MEMORY},
    {"cudaIpcOpenEventHandle", OUTSIDE_MEMORY},
    {"cudaMemPoolExportToShareableHandle", OUTSIDE_MEMORY},
    {"cudaMemPoolImportFromShareableHandle", OUTSIDE_MEMORY},
    {"cudaMemPoolExportPointer", OUTSIDE_MEMORY},
    {"cudaMemPoolImportPointer", OUTSIDE_MEMORY},
    {NULL, NULL}};

/* Named here only for a clearer message than "not on the allowlist". */
static const struct { const char *prefix, *why; } KNOWN_DENIED[] = {
    {"fopen", "opens files"}, {"open", "opens files"}, {"creat", "creates files"},
    {"unlink", "removes files"}, {"remove", "removes files"}, {"rename", "renames files"},
    {"system", "starts processes"}, {"popen", "starts processes"}, {"fork", "starts processes"},
    {"vfork", "starts processes"}, {"exec", "starts processes"}, {"posix_spawn", "starts processes"},
    {"kill", "signals processes"}, {"pthread_", "starts or manages threads"},
    {"std::thread", "starts threads"}, {"clock", "reads a clock"}, {"gettimeofday", "reads a clock"},
    {"time", "reads a clock"}, {"std::chrono", "reads a clock"}, {"nanosleep", "sleeps"},
    {"usleep", "sleeps"}, {"sleep", "sleeps"}, {"getenv", "reads the environment"},
    {"dlopen", "loads code"}, {"dlsym", "loads code"}, {"socket", "opens network connections"},
    {"connect", "opens network connections"}, {NULL, NULL}};

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The bare function name: demangled C++ names carry "(args)". */
static int name_is(const char *name, const char *want)
{
    size_t n = strlen(want);
    return strncmp(name, want, n) == 0 && (name[n] == 0 || name[n] == '(' || name[n] == '@');
}

static int in_list(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (name_is(name, list[i])) return 1;
    return 0;
}

static int is_math(const char *name)
{
    for (int i = 0; MATH_NAMES[i]; i++) {
        size_t n = strlen(MATH_NAMES[i]);
        if (strncmp(name, MATH_NAMES[i], n) != 0) continue;
        const char *rest = name + n;
        if (*rest == 'f' || *rest == 'l') rest++;
        if (*rest == 0 || *rest == '(' || *rest == '@') return 1;
    }
    return 0;
}

static int is_undefined(char type)
{
    return type == 'U' || type == 'w' || type == 'v';
}

/* The first of the lab's forbidden libraries that name belongs to, or n
 * when none. */
static int forbidden_index(const char *name, const lab_forbidden *forbidden, int n)
{
    for (int i = 0; forbidden && i < n && forbidden[i].prefix; i++) {
        /* Also inside another namespace: CUB_WRAPPED_NAMESPACE=x puts CUB
         * in x::cub. */
        char inner[80];
        snprintf(inner, sizeof inner, "::%s", forbidden[i].prefix);
        if (starts_with(name, forbidden[i].prefix) || strstr(name, inner)) return i;
    }
    return n;
}

static int is_cuda_runtime(const char *name)
{
    return starts_with(name, "cuda") && isupper((unsigned char)name[4]);
}

const char *sym_judge(char type, const char *name, int emulated,
                      const lab_forbidden *forbidden, int n_forbidden)
{
    if (forbidden_index(name, forbidden, n_forbidden) < n_forbidden)
        return "is a library this lab forbids";
    if (!is_undefined(type)) return name_is(name, "main") ? "the grader owns main" : NULL;

    for (int i = 0; CUDA_DENIED[i].name; i++)
        if (name_is(name, CUDA_DENIED[i].name)) return CUDA_DENIED[i].why;
    if (is_cuda_runtime(name) || in_list(name, LIBC_NAMES) || is_math(name)) return NULL;
    for (int i = 0; SUPPORT_PREFIXES[i]; i++)
        if (starts_with(name, SUPPORT_PREFIXES[i])) return NULL;
    /* The CPU emulation's own runtime, which the launch rewriter calls. */
    if (emulated && (starts_with(name, "emu::") || starts_with(name, "std::ios_base::Init")))
        return NULL;
    for (int i = 0; KNOWN_DENIED[i].prefix; i++)
        if (starts_with(name, KNOWN_DENIED[i].prefix)) return KNOWN_DENIED[i].why;
    return SYM_NOT_LISTED;
}

const char SYM_NOT_LISTED[] = "is not on the allowlist (the CUDA runtime, the C math "
                              "library, malloc and free, memcpy and memset, printf)";

/* `nm -C [option] file`, as text kept in `path`; NULL
 * when nm cannot read it. The caller frees. */
static char *nm_listing(const char *file, const char *option, const char *path)
{
    remove(path);
    char *argv[5];
    int n = 0;
    argv[n++] = "nm";
    argv[n++] = "-C";
    if (option) argv[n++] = (char *)option;
    argv[n++] = (char *)file;
    argv[n] = NULL;
    iso_result ir;
    if (iso_run(argv, path, 60, &ir) != 0 || !ir.exited || ir.exit_code != 0) return NULL;
    return iso_log_tail(path, 16 << 20);
}

/* Is name one of the defined symbols in an nm listing? */
static int listed(const char *listing, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = listing; p && (p = strstr(p, name)); p += n)
        if (p > listing + 2 && p[-1] == ' ' && p[-3] == ' ' && (p[n] == '\n' || p[n] == 0))
            return 1;
    return 0;
}

/* One line of `nm -C`: a value (or blanks), a type letter, the name. */
static int parse_nm_line(char *line, char *type, char **name)
{
    char *p = line;
    if (*p != ' ') {
        while (*p && *p != ' ') p++; /* the value */
    }
    while (*p == ' ') p++;
    if (!*p || p[1] != ' ') return 0;
    *type = *p;
    *name = p + 2;
    return **name != 0;
}

sym_verdict sym_check_object(const char *object, const char *scratch,
                             const char *emu_library, const lab_spec *spec, char *why,
                             size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/symbols.txt", scratch);
    char *listing = nm_listing(object, NULL, path);
    if (!listing) {
        snprintf(why, size, "not checked: nm could not read the compiled file");
        return SYM_NOT_CHECKED;
    }
    int emulated = emu_library != NULL;
    char *emu_names = NULL;
    if (emulated) {
        snprintf(path, sizeof path, "%s/emu-symbols.txt", scratch);
        emu_names = nm_listing(emu_library, "--defined-only", path);
    }
    int n_forbidden = (int)(sizeof spec->forbidden / sizeof *spec->forbidden);
    /* Read every symbol: a forbidden library is named first (the lab's
     * first-listed one, as CUB pulls in Thrust), then the first other
     * symbol off the allowlist. */
    int library = n_forbidden, thrust = 0;
    char library_symbol[200] = "", other[400] = "", other_name[161] = "";
    for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n")) {
        char type, *name;
        if (!parse_nm_line(line, &type, &name)) continue;
        int lib = forbidden_index(name, spec->forbidden, library);
        if (lib < library) {
            library = lib;
            snprintf(library_symbol, sizeof library_symbol, "%.120s", name);
        }
        thrust |= starts_with(name, "thrust::");
        if (other[0] || library < n_forbidden) continue;
        const char *reason = sym_judge(type, name, emulated, NULL, 0);
        /* In emulation, device functions (__sinf, the occupancy API) come
         * from the emulation's own library, which is trusted. */
        if (reason == SYM_NOT_LISTED && listed(emu_names, name)) reason = NULL;
        if (reason) snprintf(other_name, sizeof other_name, "%s", name);
        if (reason && !is_undefined(type))
            snprintf(other, sizeof other, "your file defines %.160s: %s", name, reason);
        else if (reason)
            snprintf(other, sizeof other, "your file calls %.160s, which %s; graded code may "
                     "only compute on the GPU", name, reason);
    }
    sym_verdict verdict = SYM_OK;
    if (library < n_forbidden) {
        verdict = SYM_REJECTED;
        const lab_forbidden *f = &spec->forbidden[library];
        snprintf(why, size, "your file uses %s (%s): this lab forbids it, because %s", f->library,
                 library_symbol, f->why ? f->why : "writing that part yourself is the lesson");
    } else if (other[0] && thrust) {
        /* What it calls first (a C++ exception, dlopen) would not say why. */
        verdict = SYM_REJECTED;
        snprintf(why, size, "your file uses Thrust, whose host code loads libraries, reads the "
                            "environment and throws C++ exceptions (it calls %s): graded code may "
                            "only compute on the GPU, so write the kernel yourself", other_name);
    } else if (other[0]) {
        verdict = SYM_REJECTED;
        snprintf(why, size, "%s", other);
    }
    free(listing);
    free(emu_names);
    return verdict;
}
