/* WRONG ON PURPOSE: a file with nothing in it but this comment, as when the
 * wrong file is handed in or an editor saved an empty buffer. The grader
 * says the entry point is missing instead of showing a linker error.
 * Must first fail the work stage.
 */
