// Compile-time agreement between two descriptions of the same data: an API answer's zod schema
// and the row type (or another area's type) the service builds the answer from. A drift in
// either is then a type error where the check is written, instead of a wrong answer.

/** true when A and B are the same type (neither wider nor narrower, optional keys included), else false. */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only for true: `type _RowMatches = Assert<Same<RowType, z.output<typeof Answer>>>`. */
export type Assert<T extends true> = T;
