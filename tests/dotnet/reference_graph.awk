# reference_graph.awk - turns Microsoft's listing of a .gcdump (fixtures/
# dotnet/Reference: "index TAB type TAB size TAB address TAB children") into
# graph_listing's lines, by the rules docs/DOTNET.md states: objects are the
# nodes with an address and a real type, classes lose their size bucket and
# get <>c and T[,] back, references to nodes that are not objects are
# dropped, and the synthetic nodes under the root become roots whose kind
# is their nearest category's and whose name is a static field's name.
BEGIN { FS = "\t" }
/^# nodes/ { root = $0; sub(/.* root /, "", root); sub(/ .*/, "", root); next }
{
    name[$1] = $2; size[$1] = $3; addr[$1] = $4; kids[$1] = $5; count = $1 + 1
}
function is_object(i) { return addr[i] != "0x0" && name[i] != "UNDEFINED" }
function synthetic(i) { return addr[i] == "0x0" && name[i] != "UNDEFINED" }
function clean(n,    m, out, i, ch, rest) {
    sub(/ \(Bytes > [0-9]+[KM]?\)$/, "", n)
    out = ""
    while ((i = index(n, "[]")) > 0) {
        ch = substr(n, i + 2, 1)
        out = out substr(n, 1, i - 1) (ch ~ /[A-Za-z0-9_]/ ? "<>" : "[]")
        n = substr(n, i + 2)
    }
    n = out n
    while (match(n, /<,+>/))
        n = substr(n, 1, RSTART - 1) "[" substr(n, RSTART + 1, RLENGTH - 2) "]" substr(n, RSTART + RLENGTH)
    return n
}
function category(n) {
    if (n == "[static vars]") return "static field"
    if (n == "[thread static vars]") return "thread static field"
    if (n == "[local vars]") return "local"
    if (n == "[strong Handles]") return "strong handle"
    if (n == "[pinning Handles]" || n == "[async pinning Handles]") return "pinned handle"
    if (n == "[finalizer Handles]") return "finalizer"
    if (n == "[other Handles]") return "other handle"
    if (n == "[Dependent Handles]") return "dependent handle"
    if (n == "[COM/WinRT Objects]") return "COM/WinRT"
    if (n == "[other roots]" || n == "[.NET Roots]") return "other"
    return ""
}
function field(n,    body, depth, i, ch, dot) {
    if (n ~ /^\[static var /) body = substr(n, 13)
    else if (n ~ /^\[thread static var /) body = substr(n, 20)
    else return ""
    body = substr(body, 1, length(body) - 1)
    depth = 0; dot = 0
    for (i = 1; i <= length(body); i++) {
        ch = substr(body, i, 1)
        if (ch == "<") depth++
        else if (ch == ">" && depth > 0) depth--
        else if (ch == "." && depth == 0) dot = i
    }
    return substr(body, dot + 1)
}
END {
    for (i = 0; i < count; i++) {
        if (!is_object(i)) continue
        printf "object\t%s\t%s\t%s\n", addr[i], size[i], clean(name[i])
        n = split(kids[i], k, ",")
        for (j = 1; j <= n; j++)
            if (is_object(k[j])) printf "edge\t%s\t%s\n", addr[i], addr[k[j]]
    }
    # the roots: breadth first over the synthetic nodes, each once
    head = 0; tail = 0
    queue[tail] = root; qkind[tail] = "other"; qname[tail] = ""; tail++; seen[root] = 1
    while (head < tail) {
        p = queue[head]; pk = qkind[head]; pn = qname[head]; head++
        n = split(kids[p], k, ",")
        for (j = 1; j <= n; j++) {
            c = k[j]
            if (synthetic(c)) {
                if (seen[c]) continue
                seen[c] = 1
                ck = category(name[c]); cn = pn
                if (ck != "") cn = ""
                else { ck = pk; f = field(name[c]); if (f != "") cn = f }
                queue[tail] = c; qkind[tail] = ck; qname[tail] = cn; tail++
            } else if (is_object(c)) {
                printf "root\t%s\t%s\t%s\n", addr[c], pk, pn
            }
        }
    }
}
