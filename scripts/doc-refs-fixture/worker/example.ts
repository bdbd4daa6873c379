// Fixture of scripts/check-doc-refs.mjs --self-test: one good reference and three bad ones.

// Good: the file exists and has this heading.
// See docs/target.md#good-heading.
// Bad: no such file.
// See docs/missing.md.
// Bad: the file exists, the heading does not.
// See docs/target.md#no-such-heading.
// Bad: a citation of a document outside the repository.
// As spec 1 §7 says.
export {};
