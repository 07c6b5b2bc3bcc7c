/* query_interfaces.c - the JDK classes that implement the interfaces
 * people ask `instanceof` of (docs/QUERY.md, "instanceof and interfaces").
 *
 * A heap dump records each class's superclass, not its interfaces: from
 * the dump alone no class is a java.util.Map. Each row names an interface
 * and a class of the JDK that implements it while its superclass does not;
 * the superclass chain, which the dump keeps, adds the rest (HashMap under
 * AbstractMap) and the program's own subclasses of them. A class that
 * implements an interface itself (the program's own, a library's, a
 * lambda) is in no row: `instanceof` says so on stderr.
 *
 * The rows are what fixtures/java/tools/JdkInterfaces.java prints (every
 * class of every module of the JDK 17 runtime image), and the golden tests
 * run it with --check on this file: each row must hold on the JDK they run
 * on. Runnable and AutoCloseable are left out on purpose (see the tool). */
#include <string.h>

#include "query_ast.h"

typedef struct jdk_row {
    const char *interface_name, *implementor;
} jdk_row;

static const jdk_row jdk_rows[] = {
    {"java.lang.CharSequence", "com.sun.tools.javac.util.Name"},
    {"java.lang.CharSequence", "java.lang.AbstractStringBuilder"},
    {"java.lang.CharSequence", "java.lang.String"},
    {"java.lang.CharSequence", "java.nio.CharBuffer"},
    {"java.lang.CharSequence", "javax.swing.text.Segment"},
    {"java.lang.CharSequence", "jdk.internal.org.jline.utils.AttributedCharSequence"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.Annotations"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.BootstrapMethods"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.ConstantPool"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.InnerClasses"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.LineNumberTable"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.LocalVariableTable"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.LocalVariableTypeTable"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.MethodParameters"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.classfile.ParameterAnnotations"},
    {"java.lang.Iterable", "com.sun.org.apache.bcel.internal.generic.InstructionList"},
    {"java.lang.Iterable", "com.sun.org.apache.xpath.internal.jaxp.XPathNodesImpl"},
    {"java.lang.Iterable", "com.sun.source.util.DocTreePath"},
    {"java.lang.Iterable", "com.sun.source.util.TreePath"},
    {"java.lang.Iterable", "com.sun.tools.classfile.Attributes"},
    {"java.lang.Iterable", "com.sun.tools.javac.comp.Env"},
    {"java.lang.Iterable", "com.sun.tools.javac.processing.JavacProcessingEnvironment$DiscoveredProcessors"},
    {"java.lang.Iterable", "java.beans.beancontext.BeanContextSupport"},
    {"java.lang.Iterable", "java.sql.SQLException"},
    {"java.lang.Iterable", "java.util.AbstractCollection"},
    {"java.lang.Iterable", "java.util.Collections$CheckedCollection"},
    {"java.lang.Iterable", "java.util.Collections$CheckedMap$CheckedEntrySet"},
    {"java.lang.Iterable", "java.util.Collections$SynchronizedCollection"},
    {"java.lang.Iterable", "java.util.Collections$UnmodifiableCollection"},
    {"java.lang.Iterable", "java.util.Properties$EntrySet"},
    {"java.lang.Iterable", "java.util.ServiceLoader"},
    {"java.lang.Iterable", "java.util.concurrent.ConcurrentHashMap$CollectionView"},
    {"java.lang.Iterable", "java.util.concurrent.CopyOnWriteArrayList"},
    {"java.lang.Iterable", "java.util.concurrent.CopyOnWriteArrayList$COWSubList"},
    {"java.lang.Iterable", "java.util.stream.SpinedBuffer"},
    {"java.lang.Iterable", "java.util.stream.SpinedBuffer$OfPrimitive"},
    {"java.lang.Iterable", "javax.security.auth.Subject$SecureSet"},
    {"java.lang.Iterable", "jdk.internal.icu.impl.Trie2"},
    {"java.lang.Iterable", "jdk.internal.icu.util.CodePointMap"},
    {"java.lang.Iterable", "jdk.internal.jrtfs.JrtDirectoryStream"},
    {"java.lang.Iterable", "jdk.internal.jrtfs.JrtPath"},
    {"java.lang.Iterable", "jdk.internal.org.jline.reader.impl.history.DefaultHistory"},
    {"java.lang.Iterable", "jdk.internal.org.objectweb.asm.tree.InsnList"},
    {"java.lang.Iterable", "jdk.nio.zipfs.ZipDirectoryStream"},
    {"java.lang.Iterable", "jdk.nio.zipfs.ZipPath"},
    {"java.lang.Iterable", "org.jcp.xml.dsig.internal.dom.ApacheNodeSetData"},
    {"java.lang.Iterable", "org.jcp.xml.dsig.internal.dom.DOMReference$1"},
    {"java.lang.Iterable", "org.jcp.xml.dsig.internal.dom.DOMSubTreeData"},
    {"java.lang.Iterable", "sun.nio.ch.Util$2"},
    {"java.lang.Iterable", "sun.nio.fs.UnixDirectoryStream"},
    {"java.lang.Iterable", "sun.nio.fs.UnixFileSystem$1"},
    {"java.lang.Iterable", "sun.nio.fs.UnixFileSystem$2"},
    {"java.lang.Iterable", "sun.nio.fs.UnixPath"},
    {"java.lang.Iterable", "sun.nio.fs.UnixSecureDirectoryStream"},
    {"java.util.Collection", "java.beans.beancontext.BeanContextSupport"},
    {"java.util.Collection", "java.util.AbstractCollection"},
    {"java.util.Collection", "java.util.Collections$CheckedCollection"},
    {"java.util.Collection", "java.util.Collections$CheckedMap$CheckedEntrySet"},
    {"java.util.Collection", "java.util.Collections$SynchronizedCollection"},
    {"java.util.Collection", "java.util.Collections$UnmodifiableCollection"},
    {"java.util.Collection", "java.util.Properties$EntrySet"},
    {"java.util.Collection", "java.util.concurrent.ConcurrentHashMap$CollectionView"},
    {"java.util.Collection", "java.util.concurrent.CopyOnWriteArrayList"},
    {"java.util.Collection", "java.util.concurrent.CopyOnWriteArrayList$COWSubList"},
    {"java.util.Collection", "javax.security.auth.Subject$SecureSet"},
    {"java.util.Collection", "sun.nio.ch.Util$2"},
    {"java.util.Deque", "java.util.ArrayDeque"},
    {"java.util.Deque", "java.util.LinkedList"},
    {"java.util.Deque", "java.util.concurrent.ConcurrentLinkedDeque"},
    {"java.util.Deque", "java.util.concurrent.LinkedBlockingDeque"},
    {"java.util.Deque", "sun.awt.util.IdentityLinkedList"},
    {"java.util.List", "com.sun.tools.javac.util.List"},
    {"java.util.List", "java.util.AbstractList"},
    {"java.util.List", "java.util.Collections$CheckedList"},
    {"java.util.List", "java.util.Collections$SynchronizedList"},
    {"java.util.List", "java.util.Collections$UnmodifiableList"},
    {"java.util.List", "java.util.ImmutableCollections$AbstractImmutableList"},
    {"java.util.List", "java.util.concurrent.CopyOnWriteArrayList"},
    {"java.util.List", "java.util.concurrent.CopyOnWriteArrayList$COWSubList"},
    {"java.util.Map", "com.sun.net.httpserver.Headers"},
    {"java.util.Map", "java.awt.RenderingHints"},
    {"java.util.Map", "java.util.AbstractMap"},
    {"java.util.Map", "java.util.Collections$CheckedMap"},
    {"java.util.Map", "java.util.Collections$SynchronizedMap"},
    {"java.util.Map", "java.util.Collections$UnmodifiableMap"},
    {"java.util.Map", "java.util.Hashtable"},
    {"java.util.Map", "java.util.jar.Attributes"},
    {"java.util.Map", "javax.management.openmbean.TabularDataSupport"},
    {"java.util.Map", "javax.script.SimpleBindings"},
    {"java.util.Map", "sun.awt.WeakIdentityHashMap"},
    {"java.util.NavigableMap", "java.util.Collections$CheckedNavigableMap"},
    {"java.util.NavigableMap", "java.util.Collections$SynchronizedNavigableMap"},
    {"java.util.NavigableMap", "java.util.Collections$UnmodifiableNavigableMap"},
    {"java.util.NavigableMap", "java.util.TreeMap"},
    {"java.util.NavigableMap", "java.util.TreeMap$NavigableSubMap"},
    {"java.util.NavigableMap", "java.util.concurrent.ConcurrentSkipListMap"},
    {"java.util.NavigableMap", "java.util.concurrent.ConcurrentSkipListMap$SubMap"},
    {"java.util.NavigableSet", "java.util.Collections$CheckedNavigableSet"},
    {"java.util.NavigableSet", "java.util.Collections$SynchronizedNavigableSet"},
    {"java.util.NavigableSet", "java.util.Collections$UnmodifiableNavigableSet"},
    {"java.util.NavigableSet", "java.util.TreeMap$KeySet"},
    {"java.util.NavigableSet", "java.util.TreeSet"},
    {"java.util.NavigableSet", "java.util.concurrent.ConcurrentSkipListMap$KeySet"},
    {"java.util.NavigableSet", "java.util.concurrent.ConcurrentSkipListSet"},
    {"java.util.Queue", "java.util.AbstractQueue"},
    {"java.util.Queue", "java.util.ArrayDeque"},
    {"java.util.Queue", "java.util.Collections$CheckedQueue"},
    {"java.util.Queue", "java.util.LinkedList"},
    {"java.util.Queue", "java.util.concurrent.ConcurrentLinkedDeque"},
    {"java.util.Queue", "sun.awt.util.IdentityLinkedList"},
    {"java.util.Set", "com.sun.tools.jdi.EventSetImpl"},
    {"java.util.Set", "java.util.AbstractSet"},
    {"java.util.Set", "java.util.Collections$CheckedMap$CheckedEntrySet"},
    {"java.util.Set", "java.util.Collections$CheckedSet"},
    {"java.util.Set", "java.util.Collections$SynchronizedSet"},
    {"java.util.Set", "java.util.Collections$UnmodifiableSet"},
    {"java.util.Set", "java.util.ImmutableCollections$AbstractImmutableSet"},
    {"java.util.Set", "java.util.Properties$EntrySet"},
    {"java.util.Set", "java.util.concurrent.ConcurrentHashMap$EntrySetView"},
    {"java.util.Set", "java.util.concurrent.ConcurrentHashMap$KeySetView"},
    {"java.util.Set", "javax.security.auth.Subject$SecureSet"},
    {"java.util.Set", "sun.nio.ch.Util$2"},
    {"java.util.SortedMap", "java.util.Collections$CheckedSortedMap"},
    {"java.util.SortedMap", "java.util.Collections$SynchronizedSortedMap"},
    {"java.util.SortedMap", "java.util.Collections$UnmodifiableSortedMap"},
    {"java.util.SortedMap", "java.util.TreeMap"},
    {"java.util.SortedMap", "java.util.TreeMap$NavigableSubMap"},
    {"java.util.SortedMap", "java.util.TreeMap$SubMap"},
    {"java.util.SortedMap", "java.util.concurrent.ConcurrentSkipListMap"},
    {"java.util.SortedMap", "java.util.concurrent.ConcurrentSkipListMap$SubMap"},
    {"java.util.SortedSet", "java.util.Collections$CheckedSortedSet"},
    {"java.util.SortedSet", "java.util.Collections$SynchronizedSortedSet"},
    {"java.util.SortedSet", "java.util.Collections$UnmodifiableSortedSet"},
    {"java.util.SortedSet", "java.util.TreeMap$KeySet"},
    {"java.util.SortedSet", "java.util.TreeSet"},
    {"java.util.SortedSet", "java.util.concurrent.ConcurrentSkipListMap$KeySet"},
    {"java.util.SortedSet", "java.util.concurrent.ConcurrentSkipListSet"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.ArrayBlockingQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.DelayQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.LinkedBlockingDeque"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.LinkedBlockingQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.LinkedTransferQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.PriorityBlockingQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue"},
    {"java.util.concurrent.BlockingQueue", "java.util.concurrent.SynchronousQueue"},
    {"java.util.concurrent.ConcurrentMap", "java.util.concurrent.ConcurrentHashMap"},
    {"java.util.concurrent.ConcurrentMap", "java.util.concurrent.ConcurrentSkipListMap"},
    {"java.util.concurrent.ConcurrentMap", "java.util.concurrent.ConcurrentSkipListMap$SubMap"},
};

enum { JDK_ROWS = sizeof jdk_rows / sizeof jdk_rows[0] };

static int names(const char *a, const char *b, size_t b_len)
{
    return strlen(a) == b_len && memcmp(a, b, b_len) == 0;
}

int lf_query_known_interface(const char *name, size_t len)
{
    for (size_t r = 0; r < JDK_ROWS; r++)
        if (names(jdk_rows[r].interface_name, name, len))
            return 1;
    return 0;
}

size_t q_jdk_implementors(const char *name, size_t len, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < JDK_ROWS; r++)
        if (names(jdk_rows[r].interface_name, name, len) && n < max)
            out[n++] = jdk_rows[r].implementor;
    return n;
}
