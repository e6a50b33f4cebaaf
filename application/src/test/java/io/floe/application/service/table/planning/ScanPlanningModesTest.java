package io.floe.application.service.table.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.rest.RESTCatalogProperties.ScanPlanningMode;
import org.junit.jupiter.api.Test;

/** What a load tells engines about where to plan: the table's property, else the operator's. */
class ScanPlanningModesTest {
  private static final String KEY = "scan-planning-mode";

  @Test
  void onTheDefaultsALoadSaysNothingAndTheEngineDecides() {
    assertThat(ScanPlanningModes.CLIENT.config(Map.of())).isEmpty();
    assertThat(ScanPlanningModes.CLIENT.config(Map.of("owner", "ops"))).isEmpty();
  }

  @Test
  void theTablesPropertyWinsOverTheOperatorsChoice() {
    ScanPlanningModes server = new ScanPlanningModes(ScanPlanningMode.SERVER);
    assertThat(server.config(Map.of())).containsExactly(Map.entry(KEY, "server"));
    assertThat(server.config(Map.of(KEY, "CLIENT"))).containsExactly(Map.entry(KEY, "client"));
    assertThat(ScanPlanningModes.CLIENT.config(Map.of(KEY, "server")))
        .containsExactly(Map.entry(KEY, "server"));
    assertThat(ScanPlanningModes.CLIENT.config(Map.of(KEY, "client")))
        .containsExactly(Map.entry(KEY, "client"));
    assertThat(server.config(Map.of(KEY, "sometimes"))).containsExactly(Map.entry(KEY, "server"));
  }
}
