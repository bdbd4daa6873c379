// Fixture of scripts/check-doc-refs.mjs --self-test: good references and five bad ones.

// Good: the file exists and has this heading.
// See docs/target.md#good-heading.
// Bad: no such file.
// See docs/missing.md.
// Bad: the file exists, the heading does not.
// See docs/target.md#no-such-heading.
// Bad: a citation of a document outside the repository (the self-test writes it in for SPEC_CITATION).
// As SPEC_CITATION says.
// Good: a decision with a record, and a stub counts as one (decision 001; Decisions 001 and 002).
// See decision 001.
// Bad: a decision with no record.
// As decision 999 chose.
// Bad: one number of a list has no record.
// See decisions 001, 998 and 002.
export {};
