package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The capability graph: one entry per distinct capability, kept while an agent declares it. */
class CapabilityIndexTest {

    private static final UUID A = new UUID(0, 1);
    private static final UUID B = new UUID(0, 2);

    private static float[] axis(int i) {
        float[] v = new float[4];
        v[i] = 1;
        return v;
    }

    private static Map<String, float[]> of(Object... nameAndAxis) {
        var m = new LinkedHashMap<String, float[]>();
        for (int i = 0; i < nameAndAxis.length; i += 2) {
            m.put((String) nameAndAxis[i], axis((Integer) nameAndAxis[i + 1]));
        }
        return m;
    }

    @Test
    void whenTwoAgentsShareACapabilityThenItIsOneNeighbourWithBothCategories() {
        try (var index = new CapabilityIndex(4)) {
            index.put(A, "language", of("translate-text", 0, "summarize", 1));
            index.put(B, "legal", of("translate-text", 0));

            var nearest = index.nearest(axis(0), 10);

            assertThat(index.size()).isEqualTo(2);
            assertThat(nearest.get(0).capability()).isEqualTo("translate-text");
            assertThat(nearest.get(0).similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(nearest.get(0).categories()).containsExactlyInAnyOrder("language", "legal");
        }
    }

    @Test
    void whenTheLastAgentDeclaringACapabilityLeavesThenTheCapabilityGoes() {
        try (var index = new CapabilityIndex(4)) {
            index.put(A, "language", of("translate-text", 0, "summarize", 1));
            index.put(B, "legal", of("translate-text", 0));

            index.remove(A);

            assertThat(index.nearest(axis(1), 10)).extracting(CapabilityIndex.Neighbour::capability)
                    .containsExactly("translate-text");
            assertThat(index.nearest(axis(0), 10).get(0).categories()).containsExactly("legal");
        }
    }

    @Test
    void whenAnAgentIsPutAgainThenItsOldCapabilitiesAreReleased() {
        try (var index = new CapabilityIndex(4)) {
            index.put(A, "language", of("translate-text", 0));
            index.put(A, "finance", of("read-invoice", 2));

            assertThat(index.size()).isEqualTo(1);
            assertThat(index.nearest(axis(0), 10)).extracting(CapabilityIndex.Neighbour::capability)
                    .containsExactly("read-invoice");
            index.replaceAll(List.of());
            assertThat(index.nearest(axis(0), 10)).isEmpty();
        }
    }

    @Test
    void whenAVectorHasTheWrongDimensionThenItIsRefused() {
        try (var index = new CapabilityIndex(4)) {
            assertThatThrownBy(() -> index.put(A, "x", Map.of("c", new float[3])))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> index.nearest(new float[5], 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
