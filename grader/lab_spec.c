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

int lab_case_given(const lab_case *c)
{
    for (int d = 0; d < LAB_MAX_DIMS; d++)
        if (c->dims[d] != 0) return 1;
    return 0;
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
