/* Atomic read-modify-write operations.
 *
 * The emulator runs one CUDA thread at a time on one host thread and switches
 * only at synchronisation points, so a plain read-modify-write is already
 * indivisible.  Each returns the old value, as CUDA's do.
 *
 * Not counted as loads or stores where the memory counters are on (a file
 * built with -fsanitize=thread): a GPU's atomic is an instruction of its
 * own (ATOM/RED, ATOMS), which its load and store counters leave out too. */
#ifndef EMU_ATOMICS_H
#define EMU_ATOMICS_H

#define EMU_NOT_COUNTED __attribute__((no_sanitize_thread))

#define EMU_ATOMIC_RMW(name, T, update)                                                         \
    EMU_NOT_COUNTED inline T name(T *address, T value)                                          \
    {                                                                                           \
        T old = *address;                                                                       \
        *address = (update);                                                                    \
        return old;                                                                             \
    }                                                                                           \
    inline T name##_block(T *address, T value) { return name(address, value); }                 \
    inline T name##_system(T *address, T value) { return name(address, value); }

#define EMU_ATOMIC_ARITHMETIC(T)                                                                \
    EMU_ATOMIC_RMW(atomicAdd, T, old + value)                                                   \
    EMU_ATOMIC_RMW(atomicExch, T, value)

#define EMU_ATOMIC_INTEGER(T)                                                                   \
    EMU_ATOMIC_ARITHMETIC(T)                                                                    \
    EMU_ATOMIC_RMW(atomicSub, T, old - value)                                                   \
    EMU_ATOMIC_RMW(atomicMin, T, value < old ? value : old)                                     \
    EMU_ATOMIC_RMW(atomicMax, T, value > old ? value : old)                                     \
    EMU_ATOMIC_RMW(atomicAnd, T, old & value)                                                   \
    EMU_ATOMIC_RMW(atomicOr, T, old | value)                                                    \
    EMU_ATOMIC_RMW(atomicXor, T, old ^ value)                                                   \
    EMU_NOT_COUNTED inline T atomicCAS(T *address, T compare, T value)                          \
    {                                                                                           \
        T old = *address;                                                                       \
        if (old == compare)                                                                     \
            *address = value;                                                                   \
        return old;                                                                             \
    }                                                                                           \
    inline T atomicCAS_block(T *address, T compare, T value) { return atomicCAS(address, compare, value); } \
    inline T atomicCAS_system(T *address, T compare, T value) { return atomicCAS(address, compare, value); }

EMU_ATOMIC_INTEGER(int)
EMU_ATOMIC_INTEGER(unsigned int)
EMU_ATOMIC_INTEGER(unsigned long long)
EMU_ATOMIC_RMW(atomicMin, long long, value < old ? value : old)
EMU_ATOMIC_RMW(atomicMax, long long, value > old ? value : old)
EMU_ATOMIC_RMW(atomicAdd, float, old + value)
EMU_ATOMIC_RMW(atomicExch, float, value)
EMU_ATOMIC_RMW(atomicAdd, double, old + value)

/* Wrapping increment and decrement, exactly as CUDA defines them. */
EMU_ATOMIC_RMW(atomicInc, unsigned int, old >= value ? 0u : old + 1u)
EMU_ATOMIC_RMW(atomicDec, unsigned int, (old == 0u || old > value) ? value : old - 1u)

EMU_NOT_COUNTED inline unsigned short atomicCAS(unsigned short *address, unsigned short compare,
                                                unsigned short value)
{
    unsigned short old = *address;
    if (old == compare)
        *address = value;
    return old;
}

#undef EMU_ATOMIC_INTEGER
#undef EMU_ATOMIC_ARITHMETIC
#undef EMU_ATOMIC_RMW
#undef EMU_NOT_COUNTED
#endif
