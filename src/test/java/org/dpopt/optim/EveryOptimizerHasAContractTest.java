package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A standards test: every concrete {@link PrivateOptimizer} in the library is exercised by the shared
 * {@link PrivateOptimizerContract} (some subclass's {@code optimizer()} returns an instance of it), and
 * every one is reachable from the {@link Optimizers} catalog.
 */
class EveryOptimizerHasAContractTest {

    private static List<Class<?>> classesUnder(Class<?> anchor) throws IOException, URISyntaxException {
        Path root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = root.relativize(p).toString();
                if (!rel.endsWith(".class") || rel.contains("package-info")) {
                    continue;
                }
                String name = rel.substring(0, rel.length() - 6).replace('/', '.').replace('\\', '.');
                try {
                    out.add(Class.forName(name, false, anchor.getClassLoader()));
                } catch (ClassNotFoundException | NoClassDefFoundError e) {
                    throw new IllegalStateException(name, e);
                }
            }
        }
        return out;
    }

    private static Set<String> implementations() throws Exception {
        Set<String> out = new TreeSet<>();
        for (Class<?> c : classesUnder(PrivateOptimizer.class)) {
            if (PrivateOptimizer.class.isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(c.getModifiers())
                    && Modifier.isPublic(c.getModifiers())) {
                out.add(c.getName());
            }
        }
        return out;
    }

    private static Object instantiate(Class<?> c) throws Exception {
        Class<?> outer = c.getEnclosingClass();
        if (outer != null && !Modifier.isStatic(c.getModifiers())) {
            Constructor<?> k = c.getDeclaredConstructor(outer);
            k.setAccessible(true);
            return k.newInstance(instantiate(outer));
        }
        Constructor<?> k = c.getDeclaredConstructor();
        k.setAccessible(true);
        return k.newInstance();
    }

    @Test
    void everyOptimizerRunsTheSharedContract() throws Exception {
        Set<String> covered = new TreeSet<>();
        int contracts = 0;
        for (Class<?> c : classesUnder(EveryOptimizerHasAContractTest.class)) {
            if (!PrivateOptimizerContract.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
                continue;
            }
            contracts++;
            Method m = PrivateOptimizerContract.class.getDeclaredMethod("optimizer");
            m.setAccessible(true);
            covered.add(m.invoke(instantiate(c)).getClass().getName());
        }
        Set<String> missing = implementations();
        missing.removeAll(covered);
        assertTrue(contracts >= implementations().size(), "contracts: " + contracts);
        assertEquals(Set.of(), missing, "optimizers without a PrivateOptimizerContract subclass");
    }

    @Test
    void theCatalogListsEveryOptimizer() throws Exception {
        Set<String> listed = new TreeSet<>();
        for (Optimizers.Entry e : Optimizers.all()) {
            PrivateOptimizer opt = e.builder().get().build();
            assertEquals(e.name(), opt.name(), "catalog name");
            assertEquals(opt.getClass(), Optimizers.builder(e.name()).build().getClass(), e.name());
            listed.add(opt.getClass().getName());
        }
        Set<String> catalogued = implementations();
        // a decorator of another optimizer is not an algorithm of its own, so not a catalog entry
        catalogued.remove(org.dpopt.optim.check.ConstantCheck.class.getName());
        assertEquals(catalogued, listed);
        assertEquals(Optimizers.all().size(), listed.size(), "one entry per optimizer");
        assertThrows(IllegalArgumentException.class, () -> Optimizers.builder("no-such-optimizer"));
    }
}
