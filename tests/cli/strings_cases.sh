# leakfind strings (issue 37): duplicate texts and the largest strings, on
# fixtures/java/src/DupStrings.java and fixtures/node/dup_strings.js (their
# headers work the sizes out).
DS=$J/dup_strings.hprof.gz
help_ strings_help strings -h
rows_ strings_jvm_duplicates "1000 63936 64000 21 java.lang.Object[] 1000 session-state:INVALID
200 14328 14400 15 java.lang.Object[] 200 naïve-ünïcode-€" \
    'NR > 1 && NR <= 3 {print $1, $2, $3, $4, $5, $6, $7}' strings $DS --format tsv
rows_ strings_jvm_largest "100040 100000 (root) xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." \
    'NR == 2 {print $2, $3, $4, $5}' strings $DS --largest --format tsv
rows_ strings_jvm_json '{"copies":1000,"wasted":63936,"bytes":64000,"length":21,"owner":"java.lang.Object[]","owner_copies":1000,"text":"session-state:INVALID"}' \
    'NR == 1' strings $DS --format json --top 1
rows_ strings_v8_duplicates "500 19960 20000 21 Array 500 session-state:INVALID" \
    'NR == 2 {print $1, $2, $3, $4, $5, $6, $7}' strings fixtures/node/dup_strings.heapsnapshot.gz --format tsv
# Concatenated strings: their parts joined ("first" then "second") give the text.
rows_ strings_v8_concatenated "300 9568 9600 27 Array 300 request-header:gzip-deflate" \
    '$7 == "request-header:gzip-deflate" {print $1, $2, $3, $4, $5, $6, $7}' \
    strings fixtures/node/dup_strings.heapsnapshot.gz --format tsv
# An .lfs keeps no texts: said, exit 2.
"$LF" convert $G/nested_class.txt -o "$tmp/strings.lfs" 2>/dev/null
case_ strings_no_texts 2 strings "$tmp/strings.lfs"
# A string's text beside it where a row shows one (the value column): its
# first 40 characters, then how many more it has. DupStrings.BIG is 'x'
# 100,000 times; the V8 fixture's 300 ConsStrings read as their parts joined.
X40=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
rows_ preview_dominators_jvm "java.lang.String $X40 [... 99960 more chars]" \
    '$11 == "static field DupStrings.BIG" {print $7, $13}' dominators $DS --format tsv
rows_ preview_path_jvm "java.lang.String $X40 [... 99960 more chars]" \
    'NR == 2 {print $8, $12}' path $DS --class java.lang.String --top 1 --format tsv
# (concatenated "request-header:gzip-deflate" strings, then plain
# "session-state:INVALID" ones)
rows_ preview_dominators_v8 "300 500" \
    '$7 == "(concatenated string)" && $13 == "request-header:gzip-deflate" {c++}
     $7 == "(string)" && $13 == "session-state:INVALID" {s++} END {print c, s}' \
    dominators fixtures/node/dup_strings.heapsnapshot.gz --flat --top 0 --min 0 --format tsv
# Objects that are not strings have none: the byte[] under BIG, in JSON.
rows_ preview_json_none '"value":null' \
    '/"field":"value"/ && /"shallow":100016/ {if (match($0, /"value":null/)) print substr($0, RSTART, RLENGTH)}' \
    dominators $DS --format json
# Control characters, a quote and a backslash (fixtures/v8/control_chars.heapsnapshot,
# by hand: one string "a<TAB>b<NEWLINE>"c\"): the preview escapes them as
# inspect does (\t, \n, \\), and TSV then escapes the backslashes.
rows_ preview_escaped 'a\\tb\\n"c\\\\' \
    '$7 == "(string)" {print $13}' \
    dominators fixtures/v8/control_chars.heapsnapshot --flat --top 0 --min 0 --format tsv
