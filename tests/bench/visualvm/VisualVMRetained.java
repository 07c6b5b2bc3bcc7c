/*
 * VisualVMRetained -- reference benchmark: how long VisualVM's heap library
 * (org.graalvm.visualvm.lib.jfluid.heap, the engine behind VisualVM's heap
 * viewer) takes to compute dominator-based retained sizes for a whole HPROF
 * dump, headless. Run it through run.sh, which compiles it against the jar
 * from Debian's `visualvm` package and measures wall time and peak RSS.
 *
 * Phases, timed separately (System.nanoTime):
 *   create   HeapFactory.createHeap(file): mmap the dump, scan the record
 *            tags, read classes and strings.
 *   index    first JavaClass.getInstancesCount(): HprofHeap.computeInstances,
 *            one pass over all instances building the id -> offset map.
 *            open = create + index (what VisualVM does before it shows the
 *            heap summary).
 *   retained Heap.getBiggestObjectsByRetainedSize(N): this is the call that
 *            runs the full computation, lazily and once for all instances:
 *            computeReferences (reverse references), NearestGCRoot (BFS from
 *            the GC roots; Reference.referent fields are not followed),
 *            TreeObject + DominatorTree, then a pass setting every object's
 *            retained size. VisualVM's "Compute retained sizes" does this.
 *   byclass  JavaClass.getRetainedSizeByClass() for every class: the extra
 *            pass VisualVM makes for the "Retained" column of the class
 *            histogram (reuses the dominator tree above).
 * It then prints the top objects by retained size and, with --static, the
 * retained size of the object held in a given static field.
 *
 * usage: java -Xmx20g -cp JAR:. VisualVMRetained DUMP [--top N] [--static Class.field]...
 */
import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;

public class VisualVMRetained {
    static double secs(long t0, long t1) {
        return (t1 - t0) / 1e9;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: VisualVMRetained DUMP [--top N] [--static Class.field]...");
            System.exit(2);
        }
        File dump = new File(args[0]);
        int top = 5;
        List<String> statics = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--top") && i + 1 < args.length) {
                top = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--static") && i + 1 < args.length) {
                statics.add(args[++i]);
            } else {
                System.err.println("unknown argument " + args[i]);
                System.exit(2);
            }
        }

        long t0 = System.nanoTime();
        Heap heap = HeapFactory.createHeap(dump);
        long t1 = System.nanoTime();
        List<JavaClass> classes = heap.getAllClasses();
        long instances = 0, shallow = 0;
        for (JavaClass c : classes) {
            instances += c.getInstancesCount(); // first call: computeInstances
            shallow += c.getAllInstancesSize();
        }
        long t2 = System.nanoTime();
        List<Instance> biggest = heap.getBiggestObjectsByRetainedSize(Math.max(top, 1));
        long t3 = System.nanoTime();
        long byClassSum = 0;
        for (JavaClass c : classes) {
            byClassSum += c.getRetainedSizeByClass();
        }
        long t4 = System.nanoTime();

        System.out.printf("dump            %s (%d bytes)%n", dump.getPath(), dump.length());
        System.out.printf("classes         %d%n", classes.size());
        System.out.printf("instances       %d (shallow %d bytes)%n", instances, shallow);
        System.out.printf("create_s        %.3f%n", secs(t0, t1));
        System.out.printf("index_s         %.3f%n", secs(t1, t2));
        System.out.printf("open_s          %.3f%n", secs(t0, t2));
        System.out.printf("retained_s      %.3f%n", secs(t2, t3));
        System.out.printf("byclass_s       %.3f  (sum of retained-by-class %d)%n", secs(t3, t4), byClassSum);
        System.out.printf("total_s         %.3f%n", secs(t0, t4));
        System.out.printf("top %d objects by retained size:%n", top);
        System.out.printf("  %-4s %-45s %-20s %12s %14s%n", "rank", "class", "id", "shallow", "retained");
        for (int i = 0; i < Math.min(top, biggest.size()); i++) {
            Instance in = biggest.get(i);
            System.out.printf("  %-4d %-45s 0x%-18x %12d %14d%n", i + 1, in.getJavaClass().getName(),
                    in.getInstanceId(), in.getSize(), in.getRetainedSize());
        }
        for (String s : statics) {
            int dot = s.lastIndexOf('.');
            JavaClass c = heap.getJavaClassByName(s.substring(0, dot));
            Object v = c == null ? null : c.getValueOfStaticField(s.substring(dot + 1));
            if (v instanceof Instance) {
                Instance in = (Instance) v;
                System.out.printf("static %s -> %s 0x%x shallow %d retained %d%n", s,
                        in.getJavaClass().getName(), in.getInstanceId(), in.getSize(), in.getRetainedSize());
            } else {
                System.out.printf("static %s -> %s%n", s, v);
            }
        }
    }
}
