package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JVM options Spark needs on Java 17 are written in three places — the pom (surefire's argLine), the
 * ./dpopt launcher and the README's spark-submit line — and must agree; the shaded jar's manifest main
 * class is the CLI.
 */
class SparkLauncherOptionsTest {

    private static String pomOptions() throws Exception {
        Matcher m = Pattern.compile("<spark.jvm.options>(.*?)</spark.jvm.options>").matcher(Files.readString(
                Path.of("pom.xml")));
        assertTrue(m.find(), "pom.xml declares spark.jvm.options");
        return m.group(1).strip();
    }

    @Test
    void launcherAndReadmeUseThePomsOptions() throws Exception {
        String opts = pomOptions();
        assertTrue(opts.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"), opts);
        Matcher m = Pattern.compile("spark_jvm_options=\"(.*?)\"").matcher(Files.readString(Path.of("dpopt")));
        assertTrue(m.find(), "./dpopt sets spark_jvm_options");
        assertEquals(opts, m.group(1));
        String readme = Files.readString(Path.of("README.md"));
        assertTrue(readme.contains("--driver-java-options \"" + opts + " -Dlog4j2"), "README spark-submit driver options");
        assertTrue(readme.contains("spark.executor.extraJavaOptions=" + opts + "\""), "README executor options");
        assertTrue(Files.isRegularFile(Path.of("src/main/resources/org/dpopt/spark/log4j2-cli.properties")));
    }

    @Test
    void surefireRunsWithTheOptions() throws Exception {
        String args = String.join(" ", java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        for (String o : pomOptions().split(" ")) {
            assertTrue(args.contains(o), "test JVM started with " + o);
        }
    }
}
