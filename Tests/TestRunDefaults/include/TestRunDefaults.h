// This target has nothing to import: linking it into the test bundle is what it is for (see
// TestRunDefaults.c).
