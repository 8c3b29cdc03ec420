/* lab_spec.c - small facts about element types, shared by both processes. */
#include "lab_spec.h"

size_t lab_elem_size(lab_elem e)
{
    return e == ELEM_F64 ? 8 : 4;
}

const lab_tolerance *lab_buffer_tolerance(const lab_spec *spec, int b)
{
    return spec->buffers[b].tolerance ? spec->buffers[b].tolerance : &spec->tolerance;
}

const char *lab_elem_name(lab_elem e)
{
    switch (e) {
    case ELEM_F32: return "float";
    case ELEM_F64: return "double";
    case ELEM_I32: return "int";
    case ELEM_U32: return "unsigned";
    }
    return "?";
}
