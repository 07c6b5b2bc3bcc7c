# `leakfind inspect`: expected values come from the fixtures' construction:
# fixtures/graphs/diamond.txt (sizes by hand), fixtures/java/src/InspectValues.java
# and fixtures/node/inspect_values.js (the values the programs set).

# diamond: Shared (500) is owned by App (100 + 40 + 60 + 500 = 700), reached
# App -left-> Left -shared-> Shared, and held by Left and Right by "shared".
case_ inspect_diamond 0 inspect $G/diamond.txt 4 --referrers --format tsv
# an id no object has is a misspelt question (exit 2), answered with the
# ids one edit away: 40 -> 4 (Shared, which alone retains its 500 B); 99
# is two edits from every id of the diamond (1-5): nothing offered
case_ inspect_unknown_id 2 inspect $G/diamond.txt 99 --format tsv
case_ inspect_near_id 2 inspect $G/diamond.txt 40 --format tsv
help_ inspect_help inspect -h

IV=$J/inspect_values.hprof.gz
# The planted Order's id, and that of its class object, as `path` finds them.
iv_order=$("$LF" path $IV --class 'InspectValues$Order' --top 1 --format tsv | awk -F'\t' 'NR == 2 {print $1}')
iv_class=$("$LF" path $IV --class java.lang.Class --top 0 --format tsv |
    awk -F'\t' '$8 == "class InspectValues$Order" {print $1; exit}')
case_ inspect_unknown_hprof_id 2 inspect $IV 0x1 --format tsv
rows_ inspect_java_fields "baseId long 77
name object order-4711 java.lang.String
city object Zürich € java.lang.String
count int 4711
total long 9000000001
price double 47.25
ratio float 0.5
paid boolean true
grade char Q
level byte -7
port short 8080
customer object InspectValues\$Customer
nothing object null
letters object hi char[]" \
    '$1 == "field" {v[$3] = $3 " " $4 " " ($5 == "" ? "" : $5 " ") $7}
     END {split("baseId name city count total price ratio paid grade level port customer nothing letters", f, " ");
          for (i = 1; i <= 14; i++) { sub(/ $/, "", v[f[i]]); print v[f[i]] }}' \
    inspect $IV "$iv_order" --format tsv
# Held by the static field InspectValues.SHOP through Shop.current.
rows_ inspect_java_path "0 static field InspectValues.SHOP InspectValues\$Shop
1 current InspectValues\$Order" \
    '$1 == "path" {print $2, ($3 == "" ? $4 : $3), $7}' inspect $IV "$iv_order" --format tsv
rows_ inspect_java_referrers "current strong InspectValues\$Shop" \
    '$1 == "referrer" {print $3, $4, $7}' inspect $IV "$iv_order" --referrers --format tsv
# The arrays the fields name: int[] {3, 1, 4}; Object[] {"first", customer, null}.
iv_codes=$("$LF" inspect $IV "$iv_order" --format tsv | awk -F'\t' '$3 == "codes" {print $6}')
iv_items=$("$LF" inspect $IV "$iv_order" --format tsv | awk -F'\t' '$3 == "items" {print $6}')
rows_ inspect_java_int_array "0 int 3
1 int 1
2 int 4" '$1 == "element" {print $2, $4, $5}' inspect $IV "$iv_codes" --format tsv
rows_ inspect_java_object_array "0 first java.lang.String
1 InspectValues\$Customer
2 null" '$1 == "element" {print $2, ($5 == "" ? $7 : $7 == "" ? $5 : $5 " " $7)}' inspect $IV "$iv_items" --format tsv
# --elements 1: one element, and a note saying two more.
rows_ inspect_java_elements_cut "0 3
2 more elements (--elements N or --all)" \
    '$1 == "element" {print $2, $5} $1 == "note" {print $5}' inspect $IV "$iv_codes" --elements 1 --format tsv
# The class object: its statics KIND = "retail", INSTANCES = 1.
rows_ inspect_java_statics "INSTANCES int 1
KIND object retail" '$1 == "static" && $3 ~ /^(INSTANCES|KIND)$/ {print $3, $4, $5}' inspect $IV "$iv_class" --format tsv
# A String cut at --max-string 5: "order" and the 5 characters left out.
iv_name=$("$LF" inspect $IV "$iv_order" --format tsv | awk -F'\t' '$1 == "field" && $3 == "name" {print $6}')
rows_ inspect_java_max_string "instance order [... 5 more chars]" \
    '$1 == "object" {print $4, $5}' inspect $IV "$iv_name" --max-string 5 --format tsv
# JSON Lines: one object per row, section first.
rows_ inspect_java_json '{"section":"field","index":null,"name":"count","kind":"int","value":"4711","id":null,"class":null,"shallow":null,"retained":null,"location":null}' \
    '/"name":"count"/' inspect $IV "$iv_order" --format json

NV=fixtures/node/inspect_values.heapsnapshot.gz
nv_order=$("$LF" path $NV --class Order --top 1 --format tsv | awk -F'\t' 'NR == 2 {print $1}')
nv_counter=$("$LF" inspect $NV "$("$LF" path $NV --class Order --top 1 --format tsv |
    awk -F'\t' '$4 == 1 {print $5}')" --format tsv | awk -F'\t' '$3 == "counter" {print $6}')
rows_ inspect_v8_properties "name property order-4711 (string)
count property 4711 (number)
price property 47.25 (number)
customer property Customer" \
    '$1 == "field" && $3 ~ /^(name|count|price|customer)$/ {print $3, $4, ($5 == "" ? "" : $5 " ") $7}' \
    inspect $NV "$nv_order" --format tsv
rows_ inspect_v8_closure "secret kept-4711
hits 4711" '$1 == "context" && $4 == "context" {print $3, $5}' inspect $NV "$nv_counter" --format tsv
rows_ inspect_v8_referrers "order global" '$1 == "referrer" && $4 == "strong" && $7 == "global" {print $3, $7}' \
    inspect $NV "$nv_order" --referrers --format tsv
# At 50 columns inspect's sections (each a table of its own) leave out
# different columns; the note names the sections that left one out: those
# whose header lacks a column the same section has at 1000 columns.
inspect_note_names_sections() {
    for c in 1000 50; do
        COLUMNS=$c "$LF" inspect $J/event_bus.hprof.gz 0xfd5bf588 --format table >"$tmp/sec.$c" 2>"$tmp/sec.err"
    done
    short=$(awk 'FNR == 1 || prev == "" { if (FILENAME ~ /1000$/) wide[$1] = $0; else if (wide[$1] != $0) print $1 }
                 { prev = $0 }' "$tmp/sec.1000" "$tmp/sec.50" | tr '\n' ' ')
    note=$(sed -n 's/^leakfind: note: left out of the \(.*\) tables\{0,1\} to fit 50 columns.*/\1/p' "$tmp/sec.err" |
        sed 's/,//g; s/ and / /')
    if [ -n "$note" ] && [ "$short" = "$note " ]; then
        ok
    else
        bad "$1: sections short of a column: '$short'; the note names: '$note'" "$(cat "$tmp/sec.err")"
    fi
}
counted inspect_note_names_sections inspect_note_names_sections
