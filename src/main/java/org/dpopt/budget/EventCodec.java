package org.dpopt.budget;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.LaplaceEvent;
import org.dpopt.accounting.NoOpEvent;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.linalg.Checks;

/**
 * A one-line text form of a {@link DpEvent} that reads back to an equal event: a term
 * {@code name(arg, …)} per record, numbers in Java's shortest round-trip form, e.g.
 * {@code self(poisson(0.01, gaussian(1.1)), 3000)}. An unknown name or a malformed term is refused.
 */
final class EventCodec {
    private final String text;
    private int pos;

    private EventCodec(String text) {
        this.text = text;
    }

    /** The text form of an event. */
    static String encode(DpEvent e) {
        if (e instanceof NoOpEvent) {
            return "noop";
        } else if (e instanceof NonPrivateEvent) {
            return "nonprivate";
        } else if (e instanceof GaussianEvent g) {
            return "gaussian(" + g.noiseMultiplier() + ")";
        } else if (e instanceof LaplaceEvent l) {
            return "laplace(" + l.noiseMultiplier() + ")";
        } else if (e instanceof EpsilonDeltaEvent ed) {
            return "epsdelta(" + ed.epsilon() + ", " + ed.delta() + ")";
        } else if (e instanceof PoissonSampledEvent p) {
            return "poisson(" + p.samplingProbability() + ", " + encode(p.event()) + ")";
        } else if (e instanceof SelfComposedEvent s) {
            return "self(" + encode(s.event()) + ", " + s.count() + ")";
        } else if (e instanceof ComposedEvent c) {
            return "compose(" + list(c.events()) + ")";
        } else if (e instanceof ParallelComposedEvent p) {
            return "parallel(" + list(p.events()) + ")";
        } else if (e instanceof AblqStepEvent a) {
            return "ablq(" + a.order() + ", " + a.noiseMultiplier() + ", " + a.stepsPerEpoch() + ")";
        } else if (e instanceof TruncatedPoissonEvent t) {
            return "truncpoisson(" + t.samplingProbability() + ", " + t.datasetSize() + ", " + t.maxBatchSize() + ", "
                    + encode(t.event()) + ")";
        }
        throw Checks.fail("event", "of a type the budget file can store", e.getClass().getSimpleName());
    }

    private static String list(List<DpEvent> events) {
        List<String> parts = new ArrayList<>();
        events.forEach(x -> parts.add(encode(x)));
        return String.join(", ", parts);
    }

    /**
     * Reads the text form back.
     *
     * @throws IllegalArgumentException if the text is not one well-formed event term
     */
    static DpEvent decode(String text) {
        Checks.notNull("text", text);
        EventCodec c = new EventCodec(text);
        DpEvent e = c.term(0);
        c.space();
        if (c.pos != text.length()) {
            throw c.error("one event term");
        }
        return e;
    }

    private DpEvent term(int depth) {
        if (depth > 64) {
            throw error("nested at most 64 deep");
        }
        space();
        String name = word();
        switch (name) {
            case "noop":
                return NoOpEvent.INSTANCE;
            case "nonprivate":
                return NonPrivateEvent.INSTANCE;
            default:
                break;
        }
        expect('(');
        DpEvent e = body(name, depth);
        expect(')');
        return e;
    }

    private DpEvent body(String name, int depth) {
        switch (name) {
            case "gaussian":
                return new GaussianEvent(number());
            case "laplace":
                return new LaplaceEvent(number());
            case "epsdelta": {
                double eps = number();
                expect(',');
                return new EpsilonDeltaEvent(eps, number());
            }
            case "poisson": {
                double q = number();
                expect(',');
                return new PoissonSampledEvent(q, term(depth + 1));
            }
            case "self": {
                DpEvent inner = term(depth + 1);
                expect(',');
                return new SelfComposedEvent(inner, count());
            }
            case "compose":
                return new ComposedEvent(terms(depth));
            case "parallel":
                return new ParallelComposedEvent(terms(depth));
            case "ablq": {
                AblqStepEvent.BatchOrder order = order();
                expect(',');
                double z = number();
                expect(',');
                return new AblqStepEvent(order, z, count());
            }
            case "truncpoisson":
                return truncated(depth);
            default:
                throw error("an event name");
        }
    }

    private AblqStepEvent.BatchOrder order() {
        String w = word();
        for (AblqStepEvent.BatchOrder o : AblqStepEvent.BatchOrder.values()) {
            if (o.name().equals(w)) {
                return o;
            }
        }
        throw error("a batch order");
    }

    private DpEvent truncated(int depth) {
        double q = number();
        expect(',');
        long n = count();
        expect(',');
        long b = count();
        expect(',');
        return new TruncatedPoissonEvent(q, n, b, term(depth + 1));
    }

    private List<DpEvent> terms(int depth) {
        List<DpEvent> out = new ArrayList<>();
        space();
        if (pos < text.length() && text.charAt(pos) == ')') {
            return out;
        }
        out.add(term(depth + 1));
        space();
        while (pos < text.length() && text.charAt(pos) == ',') {
            pos++;
            out.add(term(depth + 1));
            space();
        }
        return out;
    }

    private String word() {
        space();
        int s = pos;
        while (pos < text.length() && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        if (pos == s) {
            throw error("a name");
        }
        return text.substring(s, pos);
    }

    private String token() {
        space();
        int s = pos;
        while (pos < text.length() && "0123456789+-.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos == s) {
            throw error("a number");
        }
        return text.substring(s, pos);
    }

    private double number() {
        return parsed(Double::valueOf, "a number");
    }

    private long count() {
        return parsed(Long::valueOf, "an integer count");
    }

    /** The next token read by {@code parse}, refused as {@code expected} if it does not parse. */
    private <T> T parsed(Function<String, T> parse, String expected) {
        String t = token();
        try {
            return parse.apply(t);
        } catch (NumberFormatException ex) {
            throw error(expected);
        }
    }

    private void expect(char c) {
        space();
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    private void space() {
        while (pos < text.length() && text.charAt(pos) == ' ') {
            pos++;
        }
    }

    private IllegalArgumentException error(String expected) {
        String found = pos < text.length() ? "'" + text.charAt(pos) + "' at offset " + pos : "the end of the text";
        return Checks.fail("event in the budget file", expected, found);
    }
}
