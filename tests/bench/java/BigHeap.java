// BigHeap - fills a heap with about N objects of realistic shapes and writes
// a heap dump of itself (HotSpot's own writer), for `make bench`.
// Shapes: HashMaps of String -> value objects, ArrayLists, binary trees with
// parent links, long linked chains, weak references, shared "popular" objects.
// usage: java -Xmx6g BigHeap OBJECTS OUT.hprof
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;

public class BigHeap {
    static final List<Object> ROOTS = new ArrayList<>();
    static final Object[] POPULAR = new Object[10000];

    static final class Value {
        int id;
        long stamp;
        Object ref;
        Object other;
        Value(int id, Object ref, Object other) { this.id = id; this.ref = ref; this.other = other; }
    }

    static final class Tree {
        Tree left, right, parent;
        int key;
        byte[] payload;
    }

    static final class Link {
        Link next;
        int value;
    }

    static long count;

    static Object popular(Random r) {
        return POPULAR[r.nextInt(POPULAR.length)];
    }

    static String str(Random r) {
        count += 2;
        return "s" + r.nextInt(1 << 30);
    }

    static Object value(Random r, Object recent) {
        count++;
        int k = r.nextInt(10);
        return new Value(r.nextInt(), k < 5 ? popular(r) : k < 8 ? recent : null, r.nextInt(3) == 0 ? popular(r) : null);
    }

    public static void main(String[] args) throws Exception {
        long target = Long.parseLong(args[0]);
        Random r = new Random(42);
        for (int i = 0; i < POPULAR.length; i++) {
            POPULAR[i] = str(r);
        }
        Object recent = null;
        while (count < target) {
            int shape = r.nextInt(100);
            Object made;
            if (shape < 35) {
                int n = 1 + r.nextInt(r.nextInt(10) == 0 ? 400 : 16);
                HashMap<String, Object> m = new HashMap<>();
                count += 2;
                for (int i = 0; i < n; i++) {
                    m.put(str(r), value(r, recent));
                    count++;
                }
                made = m;
            } else if (shape < 65) {
                int n = 1 + r.nextInt(r.nextInt(10) == 0 ? 2000 : 20);
                ArrayList<Object> l = new ArrayList<>(n);
                count += 2;
                for (int i = 0; i < n; i++) {
                    l.add(r.nextInt(5) == 0 ? str(r) : value(r, recent));
                }
                made = l;
            } else if (shape < 80) {
                int n = 3 + r.nextInt(200);
                Tree[] nodes = new Tree[n];
                for (int i = 0; i < n; i++) {
                    nodes[i] = new Tree();
                    nodes[i].key = i;
                    if (r.nextInt(4) == 0) {
                        nodes[i].payload = new byte[16 + r.nextInt(64)];
                        count++;
                    }
                    if (i > 0) {
                        Tree p = nodes[(i - 1) / 2];
                        nodes[i].parent = p;
                        if (i % 2 == 1) p.left = nodes[i]; else p.right = nodes[i];
                    }
                }
                count += n;
                made = nodes[0];
            } else if (shape < 82) {
                int n = 1 + r.nextInt(r.nextInt(20) == 0 ? 100000 : 2000);
                Link head = new Link(), at = head;
                for (int i = 1; i < n; i++) {
                    at.next = new Link();
                    at = at.next;
                }
                count += n;
                made = head;
            } else if (shape < 90) {
                made = new WeakReference<>(recent != null ? recent : popular(r));
                count++;
            } else {
                made = value(r, recent);
            }
            ROOTS.add(made);
            recent = made;
            if (r.nextInt(64) == 0) POPULAR[r.nextInt(POPULAR.length)] = made;
        }
        System.out.println("objects made: " + count);
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(args[1], true);
        System.out.println("dumped " + args[1]);
    }
}
