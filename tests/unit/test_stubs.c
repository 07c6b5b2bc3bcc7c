#include "test.h"
#include "tests.h"
void test_strtab_interning(void) {}
void test_textgraph_parse(void) {}
void test_textgraph_errors(void) {}
void test_lfs_roundtrip(void) {}
void test_lfs_corruption(void) {}
void test_lfs_writer_api(void) {}
