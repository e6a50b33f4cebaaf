package io.floe.application.service.lifecycle;

import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.service.namespace.NamespaceCreation;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/** The lifecycle's services wired on a testbed's fakes, as the server wires them. */
final class Lifecycles {
  private Lifecycles() {}

  static CreationRepair repair(Testbed bed) {
    return bed.creationRepair();
  }

  static PrefixOwnerCreation creation(Testbed bed, LifecycleProbe probe) {
    return bed.prefixOwnerCreation(probe);
  }

  /** Creates a namespace the way both APIs do: name, claim, marker, row. */
  static Namespace createNamespace(Testbed bed, String name) {
    return new NamespaceCreation(bed.store.orgs(), bed.store.namespaces(),
        creation(bed, LifecycleProbe.NONE), bed.ids, bed.clock, bed.policy())
        .create(bed.admin, new NamespaceCreation.Request(new CatalogName(name), Optional.empty(),
            Map.of(), Optional.empty(), Map.of(), Visibility.PRIVATE),
            (namespace, bucket) -> namespace);
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
