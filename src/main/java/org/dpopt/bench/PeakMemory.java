package org.dpopt.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory a benchmark process has used so far: the heap's peak (the sum over the collector's heap
 * pools of each pool's peak, an upper bound on the simultaneous peak, as pools peak at different
 * times; the old generation's peak alone, where the collector names one, a lower bound on it), the
 * heap's current use, committed size and maximum, and the process's peak resident set
 * ({@code VmHWM} in {@code /proc/self/status}; −1 where that file does not exist).
 */
public final class PeakMemory {
    private PeakMemory() {
    }

    /** The keys of {@link #now()}, in order (CSV columns). */
    public static final String[] KEYS = {"heap_peak_pools_sum_bytes", "heap_old_gen_peak_bytes", "heap_used_bytes",
        "heap_committed_bytes", "heap_max_bytes", "rss_peak_bytes", "rss_bytes"};

    /** The current values under {@link #KEYS}, in bytes. */
    public static Map<String, Long> now() {
        long sum = 0;
        long old = -1;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
                if (p.getName().contains("Old") || p.getName().contains("Tenured")) {
                    old = p.getPeakUsage().getUsed();
                }
            }
        }
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        Map<String, Long> m = new LinkedHashMap<>();
        m.put(KEYS[0], sum);
        m.put(KEYS[1], old);
        m.put(KEYS[2], heap.getUsed());
        m.put(KEYS[3], heap.getCommitted());
        m.put(KEYS[4], heap.getMax());
        // one read of the status file, so that the peak and the current RSS are of the same moment (two reads
        // let the RSS grow in between and exceed the peak read first)
        List<String> status = statusLines();
        m.put(KEYS[5], statusKb(status, "VmHWM:"));
        m.put(KEYS[6], statusKb(status, "VmRSS:"));
        return m;
    }

    /** The values of {@link #now()} joined by commas (a CSV row's tail, in the order of {@link #KEYS}). */
    public static String csv(Map<String, Long> m) {
        StringBuilder sb = new StringBuilder();
        for (String k : KEYS) {
            sb.append(sb.length() == 0 ? "" : ",").append(m.get(k));
        }
        return sb.toString();
    }

    /** One line for a progress stream: peak heap and peak RSS in GB. */
    public static String describe(Map<String, Long> m) {
        return String.format("peak heap %.2f GB (pool peaks summed; old gen %.2f GB), max heap %.2f GB, peak RSS %.2f GB",
                m.get(KEYS[0]) / 1e9, m.get(KEYS[1]) / 1e9, m.get(KEYS[4]) / 1e9, m.get(KEYS[5]) / 1e9);
    }

    /** The lines of /proc/self/status (empty if absent or unreadable). */
    static List<String> statusLines() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status"));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** A field of /proc/self/status given in kB, in bytes (−1 if absent or unreadable). */
    static long statusKb(String field) {
        return statusKb(statusLines(), field);
    }

    /** A field given in kB among the status lines, in bytes (−1 if absent or malformed). */
    static long statusKb(List<String> status, String field) {
        for (String line : status) {
            if (line.startsWith(field)) {
                try {
                    String v = line.substring(field.length()).trim();
                    return Long.parseLong(v.substring(0, v.indexOf(' '))) * 1024;
                } catch (RuntimeException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
