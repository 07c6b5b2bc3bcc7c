# leakfind query (issue 37): questions to the heap. The answers come from
# the fixtures' construction: fixtures/java/src/Sessions.java and
# fixtures/node/sessions.js (1,000 sessions, i = 0..999: tenant acme for
# i < 500, globex for i < 800, else initech; state INVALID when i % 5 == 0,
# IDLE when i % 5 == 1, else ACTIVE; every i % 100 == 7 an AdminSession),
# fixtures/example (300 Listener in one ArrayList) and the .NET Leaky
# program (100 of each planted type after 100 operations).
QS=$J/sessions.hprof.gz
QV=fixtures/node/sessions.heapsnapshot.gz
help_ query_help query -h
# count with a condition on an enum field, compared by its name
case_ query_count_invalid 0 query $QS "select count() from Session where state = 'INVALID'"
# a text no object has (a misspelt enum name) answers 0 with a note of the
# texts the field takes, counted over the 990 Session (200 INVALID, 200
# IDLE, 590 ACTIVE) and the closest; a comparison whose text occurs is not
# noted (tenant: acme 495, globex 297, initech 198, the AdminSessions left
# out), nor is an empty answer whose texts all occur
case_ query_literal_misspelt 0 query $QS "select count() from Session where state = 'INVALD'"
case_ query_literal_one_of_two 0 query $QS "select count() from Session where state = 'IDLE' and tenant = 'nobody'"
case_ query_literal_all_known 0 query $QS \
    "select count() from Session where state = 'IDLE' and tenant = 'initech' and @retained > 100000"
case_ query_literal_v8 0 query $QV "select count() from Session where state = 'activ'"
# group by a String field; sum of retained: 400, 624, 848 B a session
case_ query_group_tenant 0 query $QS "select tenant, count(), sum(@retained) from Session group by tenant"
# instanceof takes the 10 AdminSession too (408, 632, 856 B)
case_ query_group_instanceof 0 query $QS \
    "select tenant, count(), sum(@retained) from instanceof Session group by tenant"
# group by an enum, ordered by the key; an alias; default order (first aggregate, largest first)
case_ query_group_state 0 query $QS "select state, count() as n from instanceof Session group by state order by state"
case_ query_order_alias 0 query $QS \
    "select tenant, sum(@retained) as bytes from instanceof Session group by tenant order by bytes desc limit 2"
# group by without select: the keys and count
case_ query_group_default 0 query $QS "from instanceof Session where tenant != 'acme' group by tenant"
# the largest byte[] no static field reaches: main's three locals first
rows_ query_not_static "3000016
2000016
1000016" 'NR > 1 && NR <= 4 {print $4}' \
    query $QS "from byte[] where not reachable('static field') order by @retained desc limit 20"
# every payload is reached from the static field ALL; a thread reaches the locals
case_ query_reachable 0 query $QS \
    "select @length, count() from byte[] where reachable('static field') and (@length = 333 or @length = 555 or @length = 777) group by @length order by @length"
rows_ query_reachable_thread "3000016
2000016
1000016" 'NR > 1 {print $4}' \
    query $QS "from byte[] where reachable('thread') and @shallow > 100000 order by @shallow desc"
# primitive fields (long, int, boolean, double), a String, an enum, a reference
case_ query_fields 0 query $QS \
    "select id, hits, secure, score, tenant, state, payload.@length from Session where hits < 3 order by hits desc"
# and, or, not, like, is null, parentheses
case_ query_conditions 0 query $QS "select count() from instanceof Session where (tenant like 'glo*' or tenant = 'initech') and not secure and role is null"
case_ query_is_not_null 0 query $QS "select @class, count() from instanceof Session where role is not null group by @class"
# aggregates of every kind over primitive fields
case_ query_aggregates 0 query $QS \
    "select min(tenant), max(tenant), avg(score), count(secure), sum(hits), count(*), min(hits), max(id) from instanceof Session"
# owned_by: payloads whose owner (dominator) is a Session
case_ query_owned_by 0 query $QS \
    "select @length, count() from byte[] where owned_by(Session) group by @length order by @length"
# @owner: the object a payload's dominator is
case_ query_owner 0 query $QS \
    "select @owner.@class, count() from byte[] where @length = 777 group by @owner.@class order by @owner.@class"
# rooted: the main thread is a thread root; its name is a String field
case_ query_rooted 0 query $QS "select name, @root from java.lang.Thread where rooted('thread') and name = 'main'"
# JSON Lines and the table
case_ query_json 0 query $QS "select tenant, count(), sum(@retained) from Session group by tenant" --format json
case_ query_table 0 query $QS "select tenant, count(), sum(@retained) from Session group by tenant" --format table
# no object chosen: an aggregate row all the same; a listing none
case_ query_none 0 query $QS "select count(), sum(@retained), max(hits) from Session where hits > 5000"
# V8: properties; numbers (exposeNumericValues) and strings; the Session
# prototype shares the class name (its tenant is null: the last group)
case_ query_v8_invalid 0 query $QV "select count() from Session where state = 'INVALID'"
case_ query_v8_group 0 query $QV "select tenant, count(), sum(score), min(hits), max(hits) from Session group by tenant"
case_ query_v8_like 0 query $QV "select count() from Session, AdminSession where id like 'session-9??'"
case_ query_v8_order 0 query $QV "select id, hits, score from AdminSession order by hits desc limit 3"
# other formats: an .lfs, a .gcdump (no field names: @attributes only)
case_ query_lfs 0 query fixtures/example/app.lfs \
    "select count(), sum(@retained) from com.acme.Listener where owned_by(java.util.ArrayList)"
case_ query_gcdump 0 query fixtures/dotnet/dumps/leaky.1.gcdump \
    "select @class, count() from Acme.Listener, Acme.CacheEntry, Acme.Session group by @class order by @class"
# errors: where, why, and a caret under the place
case_ query_err_syntax 2 query $QS "select count( from Session"
case_ query_err_end 2 query $QS "from Session where state ="
case_ query_err_string 2 query $QS "from Session where state = 'INVALID"
case_ query_err_escape 2 query $QS "from Session where state = 'IN\\qVALID'"
case_ query_err_function 2 query $QS "select total(@retained) from Session"
case_ query_err_attribute 2 query $QS "from Session where @size > 10"
case_ query_err_grouped 2 query $QS "select tenant, count() from Session"
case_ query_err_where_aggregate 2 query $QS "from Session where count() > 1"
case_ query_err_order 2 query $QS "select tenant, count() from Session group by tenant order by hits"
case_ query_err_number 2 query $QS "from Session where @retained > 12XB"
case_ query_err_empty 2 query $QS "   "
case_ query_err_clause 2 query $QS "from Session limit 5 where hits = 1"
case_ query_err_nested 2 query $QS "from Session where ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((hits)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) = 1"
case_ query_err_kind 2 query $QS "from Session where reachable('static fields')"
case_ query_err_instanceof 2 query $QV "from instanceof Session"
case_ query_err_gcdump_field 2 query fixtures/dotnet/dumps/leaky.1.gcdump "from Acme.Listener where name = 'x'"
case_ query_err_multiline 2 query $QS "select count()
from Session
where state = = 'INVALID'"
case_ query_err_args 2 query $QS
# sizes with units; an object compared with a number by its id
case_ query_size_unit 0 query $QS "select count() from byte[] where @shallow >= 1MiB"
case_ query_id_number 0 query $QS "select count() from Session where @id != 0 and @id > 0x10"
# a field name in backquotes (as a keyword could be); @text of the one "globex"
case_ query_backquote 0 query $QS "select \`state\`, count() from Session where \`hits\` < 10 group by \`state\`"
case_ query_text 0 query $QS "select @text, @length, count() from java.lang.String where @text like 'glob*' group by @text, @length"
# select *: id, class, shallow, retained and the string's value (the
# literal "admin": String 24 B and its byte[5], 24 B)
rows_ query_star "java.lang.String 24 48 admin" 'NR > 1 {print $2, $3, $4, $5}' \
    query $QS "select * from java.lang.String where @text = 'admin'"
# the JDK's IntegerCache holds the Integers -128..127: 128 negative ones,
# each a boxed number compared as its value
case_ query_boxed_negative 0 query $QS "select count() from java.lang.Integer where value >= -128 and value < 0"
# an .lfs keeps references only: groups by reference still work (the three
# tenant strings, as ids), said on stderr; a field that holds a number is
# not in it, an error that says so
"$LF" convert $QS -o "$tmp/sessions.lfs" 2>/dev/null
rows_ query_lfs_references "495
297
198" 'NR > 1 {print $2}' query "$tmp/sessions.lfs" "select tenant, count() from Session group by tenant"
case_ query_err_lfs_number 2 query "$tmp/sessions.lfs" "select tenant, count(), count(hits) from Session group by tenant"
# OCaml: the 100 Typed.session records of fixtures/ocaml/typed.ml; fields
# are numbered, so a field by name is an error that says so
case_ query_err_ocaml_field 2 query fixtures/ocaml/snapshots/typed.1.lfs "select count(), count(user) from Typed.session"
# [N]: an element. OCaml's numbered fields (a session's field 1 is its user
# string); a JVM array's elements (ALL's first element; a payload's bytes,
# all zero, 333 of them); V8 elements (the sessions array: [0] is session 0)
case_ query_element_ocaml 0 query fixtures/ocaml/snapshots/typed.1.lfs "select [1].@class, count() from Typed.session group by [1].@class"
case_ query_element_jvm 0 query $QS "select count() from java.util.ArrayList where elementData[0].@class = 'Sessions\$Session'"
case_ query_element_bytes 0 query $QS "select payload[0], payload[332], payload[333] is null from Session where hits = 0"
case_ query_element_v8 0 query $QV "select count() from Array where [0].tenant = 'acme' and [999].tenant = 'initech'"
case_ query_err_index 2 query $QS "select payload[-1] from Session"
# a glob for the class names; '*' alone for every object
case_ query_from_glob 0 query $QS "select @class, count() from *Session group by @class order by @class"
case_ query_from_all 0 query $QS "select count() from * where @class = 'byte[]' and @length = 777"
# Issue 47: a question that cannot be answered is an error with the place
# and the closest names, never 0. A class name that means no class (the
# closest: Session, Sessions by simple name, ModuleDescriptor$Version at
# distance 2); a glob that matches none; a simple name two JDK classes end
# with (HashMap$Node, ConcurrentHashMap$Node, in the dump's class order)
case_ query_err_no_class 2 query $QS "select count() from Sesion"
case_ query_err_no_class_glob 2 query $QS "select count() from *Sesion"
case_ query_err_simple_name 2 query $QS "select count() from Node where hash = 0"
# a class name in double quotes that no class has is Eclipse MAT's regular
# expression over the whole name (its escapes pass the lexer): the 990
# sessions and 10 admin sessions; one that is no regular expression either
case_ query_class_regex 0 query $QS "select @class, count() from \"Sessions\\\$(Admin)?Session\" group by @class order by @class"
case_ query_err_regex 2 query $QS "select count() from \"Sessions\\\$(Admin\""
# instanceof an interface (fixtures/java/src/QueryShapes.java): a dump
# records no interfaces, so the JDK classes known to implement it and their
# subclasses, said on stderr. The holder owns 8 maps the table finds (5 of
# the JDK, 2 Registry extending HashMap, a Dict extending AbstractMap) and
# Direct, which implements Map itself and cannot be found
QH=$J/query_shapes.hprof.gz
case_ query_instanceof_interface 0 query $QH \
    "select @class, count() from instanceof java.util.Map where owned_by(QueryShapes\$Holder) group by @class order by @class"
case_ query_instanceof_interface_json 0 query $QH --format json \
    "select @class, count() from instanceof java.util.Map where owned_by(QueryShapes\$Holder) group by @class order by @class"
# Deque: the ArrayDeque and the LinkedList; CharSequence: 2 StringBuilder,
# a StringBuffer, a String
case_ query_instanceof_deque 0 query $QH \
    "select @class, count() from instanceof java.util.Deque where owned_by(QueryShapes\$Holder) group by @class order by @class"
case_ query_instanceof_text 0 query $QH \
    "select @class, count() from instanceof java.lang.CharSequence where owned_by(QueryShapes\$Holder) group by @class order by @class"
# an interface of the program (Shape): no objects, no subclasses, not the
# JDK's: an error that says why and what to write; an interface without
# instanceof; an abstract class without it (0, and a note: its 3 Circle and
# 4 Square are its subclasses')
case_ query_err_interface 2 query $QH "select count() from instanceof QueryShapes\$Shape"
case_ query_err_interface_plain 2 query $QH "select count() from java.util.Map"
case_ query_abstract_plain 0 query $QH "select count() from QueryShapes\$Base"
# every row of the table holds on the JDK here (a class that implements
# the interface, whose superclass does not)
if command -v java >/dev/null 2>&1; then
    check_ query_jdk_interfaces java fixtures/java/tools/JdkInterfaces.java --check core/query/query_interfaces.c
else
    echo "skip query_jdk_interfaces: no java on PATH"
fi
# Objects no root reaches are left out, as Eclipse MAT leaves them out of
# its snapshot: the 25 Garbage (said on stderr); the 6 Cached that only
# WeakReference.referent reaches stay (MAT marks along every reference; a
# GC has not cleared them). --keep-unreachable makes them roots: all 25.
case_ query_unreachable 0 query $QH \
    "select @class, count() from QueryShapes\$Cached, QueryShapes\$Garbage group by @class order by @class"
case_ query_keep_unreachable 0 query $QH --keep-unreachable \
    "select @class, count(), min(id), max(id) from QueryShapes\$Cached, QueryShapes\$Garbage group by @class order by @class"
# A field the objects read cannot have is an error with the closest names
# and the fields they have (Session's seven, as the dump lists them: the
# last declared first), not 0. The issue's misspelt state:
case_ query_err_field 2 query $QS "select count() from Session where _stat = 'INVALID'"
# several classes chosen: an error only when none has it (AdminSession's
# role; Session has none, and `from Session` alone would be an error too)
case_ query_err_field_classes 2 query $QS "select count() from instanceof Session where rol is null"
case_ query_field_some_class 0 query $QS "select count() from instanceof Session where role = 'admin'"
# a later step: no class of the dump has it; an @attribute without its @;
# a step after a value that is no object
case_ query_err_field_later 2 query $QS "select @owner.nme from Session"
case_ query_err_field_attribute 2 query $QS "select payload.lenght from Session"
case_ query_err_not_object 2 query $QS "select @class.name from Session"
# a class object's static fields are its fields: Sessions.ALL
case_ query_err_field_static 2 query $QS "select count() from java.lang.Class where ALLL is not null"
# V8: the properties Session objects and the Session prototype have
case_ query_err_v8_field 2 query $QV "select count() from Session where tennant = 'acme'"
# Eclipse MAT's OQL: an alias after the class (s.f is the field f, s the
# object), MAT's names of our @attributes, a long's L; the sums by tenant
case_ query_mat_alias 0 query $QS \
    "SELECT s.tenant, count(), sum(s.@retainedHeapSize) FROM Sessions\$Session s WHERE s.@usedHeapSize = 48L GROUP BY s.tenant"
case_ query_mat_alias_json 0 query $QS --format json \
    "SELECT s.tenant, count(), sum(s.@retainedHeapSize) FROM Sessions\$Session s WHERE s.@usedHeapSize = 48L GROUP BY s.tenant"
# s alone: the object (the literal "admin" as its text)
case_ query_mat_alias_self 0 query $QS "SELECT s FROM java.lang.String s WHERE s = 'admin'"
# distinct: group by without an aggregate (the three states); with objects,
# the objects themselves, not the values they stand for: DupStrings' 1,000
# copies of one text (fixtures/java/src/DupStrings.java)
case_ query_mat_distinct 0 query $QS "SELECT DISTINCT s.state FROM instanceof Sessions\$Session s"
case_ query_mat_distinct_json 0 query $QS --format json "SELECT DISTINCT s.state FROM instanceof Sessions\$Session s"
rows_ query_mat_distinct_objects "1000" 'END {print NR - 1}' \
    query $J/dup_strings.hprof.gz "SELECT DISTINCT OBJECTS s FROM java.lang.String s WHERE s = 'session-state:INVALID'"
rows_ query_mat_distinct_values "session-state:INVALID" 'NR > 1' \
    query $J/dup_strings.hprof.gz "SELECT DISTINCT s FROM java.lang.String s WHERE s = 'session-state:INVALID'"
# from objects ID: the session with hits 7 (an AdminSession, role admin),
# found by its id
admin7=$("$LF" query $QS "select @id from instanceof Session where hits = 7" 2>/dev/null | sed -n 2p)
case_ query_mat_from_objects 0 query $QS "SELECT s.hits, s.role FROM OBJECTS $admin7 s"
case_ query_err_mat_from_objects 2 query $QS "SELECT * FROM OBJECTS 0x1"
case_ query_err_mat_subquery 2 query $QS "SELECT * FROM OBJECTS (SELECT * FROM Session)"
# what leakfind says otherwise, and how: methods, MAT's functions, LIKE's
# regular expressions, distinct over an aggregate, an alias that is a field
case_ query_err_mat_method 2 query $QS "SELECT s.hits FROM Session s WHERE s.tenant.startsWith(\"glo\")"
case_ query_err_mat_tostring 2 query $QS "SELECT s.hits FROM Session s WHERE toString(s.tenant) = 'acme'"
case_ query_err_mat_classof 2 query $QS "SELECT DISTINCT classof(s) FROM instanceof Session s"
case_ query_err_mat_like 2 query $QS "SELECT count() FROM java.lang.String s WHERE s LIKE \".*glob.*\""
case_ query_err_mat_distinct 2 query $QS "SELECT DISTINCT count() FROM Session"
case_ query_err_mat_alias_field 2 query $QS "select count() from Session state where state = 'INVALID'"
# in the same spirit: a class name compared with @class that no class has
# (it would hold for no object), and owned_by an interface (no object is
# of one, so none is owned by one)
case_ query_err_class_literal 2 query $QS "select count() from * where @class = 'Sessions\$Sesion'"
case_ query_err_owned_by_interface 2 query $QS "select count() from byte[] where owned_by(java.util.Map)"
