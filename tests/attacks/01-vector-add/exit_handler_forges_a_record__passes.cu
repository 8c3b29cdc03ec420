// ATTACK: register an exit handler (atexit is on the allowlist: nvcc's own
// code uses it) that appends a made-up record to the response file when
// the runner exits on its own thread. Defended: the runner ends with _exit,
// so no exit handler ever runs. Had it run, the made-up record (a call
// begun twice) would make the grade an error, and this file would not pass.
#include <cuda_runtime.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A made-up record in the runner's format (grader/protocol.h): "call 0
 * begins" once more. */
static const unsigned FORGED[4] = {0x4c414231u, 1, 0, 0};

static void forge_at_exit(void)
{
    typedef long (*write_fn)(int, const void *, unsigned long);
    write_fn write_ = (write_fn)find_in_libc("write");
    if (write_) write_(3, FORGED, sizeof FORGED);
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    static int registered;
    if (!registered++) atexit(forge_at_exit);
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
