/* tests.h - the list of unit tests (X-macro) and their declarations. */
#ifndef LF_TESTS_H
#define LF_TESTS_H

#define LF_UNIT_TESTS(T)                   \
    T(test_dominators_hand_graphs)         \
    T(test_dominators_random_vs_reference) \
    T(test_dominators_threaded_vs_reference) \
    T(test_dominators_keep_unreachable)    \
    T(test_dominators_long_chain)          \
    T(test_dominators_ladder)              \
    T(test_dominators_progress)            \
    T(test_domtree_children_sorted)        \
    T(test_domtree_long_lists_sorted)      \
    T(test_domtree_every_list)             \
    T(test_class_retained_nested)          \
    T(test_class_retained_skips_empty)     \
    T(test_reverse_lists)                  \
    T(test_edge_offsets_widen)             \
    T(test_dominators_wide)                \
    T(test_find_edge)                      \
    T(test_strtab_interning)               \
    T(test_strtab_append_canonical)        \
    T(test_textgraph_parse)                \
    T(test_name_cut_class)                 \
    T(test_name_cut_path)                  \
    T(test_clock_hprof_header)             \
    T(test_clock_v8_ids)                   \
    T(test_clock_probe_files)              \
    T(test_clock_lfs_writer)               \
    T(test_clock_gcdump)                   \
    T(test_gcdump_hand_graph)              \
    T(test_gcdump_errors)                  \
    T(test_gcdump_every_cut)               \
    T(test_gcdump_retained_vs_reference)   \
    T(test_textgraph_errors)               \
    T(test_lfs_roundtrip)                  \
    T(test_lfs_corruption)                 \
    T(test_lfs_writer_api)                 \
    T(test_lfs_big_sizes)                  \
    T(test_lfs_stream_hand_graph)          \
    T(test_lfs_stream_misuse)              \
    T(test_lfs_stream_device)              \
    T(test_site_table_interning)           \
    T(test_sites_writer_sampled)           \
    T(test_sites_lfs_corrupt)              \
    T(test_sort_ids)                       \
    T(test_sort_ids_dump_order)            \
    T(test_sort_ids_one_long_run)          \
    T(test_idrank)                         \
    T(test_idset)                          \
    T(test_big_arrays)                     \
    T(test_big_spill)                      \
    T(test_big_result_store)               \
    T(test_available_memory)               \
    T(test_resident_release)               \
    T(test_idmap)                          \
    T(test_idmap_reserve)                  \
    T(test_builder_dense_ids)              \
    T(test_builder_edge_orders)            \
    T(test_hprof_android)                  \
    T(test_hprof_errors)                   \
    T(test_hprof_dangling)                 \
    T(test_hprof_repeated_id)              \
    T(test_hprof_lazy_labels)              \
    T(test_hprof_wrapped_heap_dump)        \
    T(test_hprof_array_past_4g)            \
    T(test_hprof_partial)                  \
    T(test_hprof_sites_art)                \
    T(test_hprof_sites_hotspot)            \
    T(test_hprof_sites_broken)             \
    T(test_hprof_sites_fixtures)           \
    T(test_hprof_address_gaps)             \
    T(test_hprof_dangling_jni_array)       \
    T(test_hprof_dangling_field_array)     \
    T(test_hprof_class_loaders)            \
    T(test_hprof_values)                   \
    T(test_hprof_values_text)              \
    T(test_hprof_values_layout)            \
    T(test_string_preview)                 \
    T(test_v8_split_guess_past_end)        \
    T(test_json_skip_values)               \
    T(test_json_skip_errors)               \
    T(test_v8_threads_same)                \
    T(test_v8_partial)                     \
    T(test_v8_far_names)                   \
    T(test_v8_sites_tree)                  \
    T(test_v8_sites_errors)                \
    T(test_v8_sites_planted)           \
    T(test_v8_lfs_edge_round_trip) \
    T(test_v8_lfs_edge_type_corrupt) \
    T(test_v8_lfs_places_corrupt)

#define T(name) void name(void);
LF_UNIT_TESTS(T)
#undef T

#endif
