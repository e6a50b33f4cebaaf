package io.floe.application.service.namespace;

import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.service.lifecycle.SoftDeletion;
import io.floe.application.testbed.Testbed;
import java.time.Duration;

/** Namespaces' creation and deletion wired on a testbed's fakes, as the server wires them. */
final class Namespaces {
  /** How long a deleted namespace can be restored. */
  static final Duration RECOVERY = Duration.ofDays(7);

  private Namespaces() {}

  static NamespaceCreation creation(Testbed bed) {
    return new NamespaceCreation(bed.store.orgs(), bed.store.namespaces(),
        bed.prefixOwnerCreation(LifecycleProbe.NONE), bed.ids, bed.clock, bed.policy());
  }

  static NamespaceDeletion deletion(Testbed bed) {
    return new NamespaceDeletion(bed.store.namespaces(), bed.store.namespaceLifecycle(),
        bed.store.namespaceDeletes(), new SoftDeletion(bed.store.names(), bed.clock, RECOVERY),
        bed.store.unitOfWork(), bed.clock, bed.policy(), bed.publisher());
  }
}
