package org.dpopt.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
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
import org.junit.jupiter.api.Test;

/** The budget file's event text reads back to an equal event, and malformed text is refused. */
class EventCodecTest {

    @Test
    void everyEventTypeRoundTripsExactly() {
        DpEvent sgd = new SelfComposedEvent(new PoissonSampledEvent(0.1 / 3, new GaussianEvent(Math.PI)), 3053);
        List<DpEvent> all = List.of(NoOpEvent.INSTANCE, NonPrivateEvent.INSTANCE, new GaussianEvent(1e-300),
                new LaplaceEvent(2.5), new EpsilonDeltaEvent(0.1, 0), new EpsilonDeltaEvent(1.0 / 7, 1e-9), sgd,
                ComposedEvent.of(), ComposedEvent.of(sgd, new LaplaceEvent(1)),
                ParallelComposedEvent.of(new GaussianEvent(2), new GaussianEvent(3)),
                new AblqStepEvent(AblqStepEvent.BatchOrder.PERSISTENT_SHUFFLE, 1.3, 17),
                new TruncatedPoissonEvent(0.01, 1000, 20, new GaussianEvent(0.9)),
                ComposedEvent.of(ComposedEvent.of(ParallelComposedEvent.of(sgd)), NoOpEvent.INSTANCE));
        for (DpEvent e : all) {
            assertEquals(e, EventCodec.decode(EventCodec.encode(e)), EventCodec.encode(e));
        }
    }

    @Test
    void malformedTextIsRefused() {
        for (String bad : List.of("", "gaussian", "gaussian()", "gaussian(1", "gaussian(1))", "gaussian(x)",
                "gaussian(-1)", "self(gaussian(1), 0)", "self(gaussian(1), 1.5)", "poisson(2, gaussian(1))",
                "unknown(1)", "ablq(SOMETIMES, 1, 2)", "compose(gaussian(1),)", "(" .repeat(100))) {
            assertThrows(IllegalArgumentException.class, () -> EventCodec.decode(bad), bad);
        }
    }
}
