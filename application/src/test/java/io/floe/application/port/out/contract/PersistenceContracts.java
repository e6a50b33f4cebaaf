package io.floe.application.port.out.contract;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;

/**
 * Every persistence port's contract, run on one backend: a backend's test is a one-line subclass
 * that opens it. The backend is opened once for all the contracts, and each test works in an org
 * of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PersistenceContracts {
  private PersistencePorts backend;

  /** Opens the backend under test, with an empty, ready database. */
  protected abstract PersistencePorts open();

  @BeforeAll
  final void openBackend() {
    backend = open();
  }

  @AfterAll
  final void closeBackend() {
    if (backend != null) {
      backend.close();
    }
  }

  @Nested
  class UnitOfWork extends UnitOfWorkContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Orgs extends OrgStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Principals extends PrincipalStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Identities extends IdentityDirectoryContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class OrgMemberships extends OrgMembershipDirectoryContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Grants extends GrantStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class CatalogObjects extends CatalogObjectStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class MetadataPointers extends CatalogRowPointersContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Namespaces extends NamespaceStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class NamespaceLifecycle extends NamespaceLifecycleStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class NamespaceDirectory extends NamespaceDirectoryContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class NamespaceSoftDeletes extends NamespaceSoftDeleteStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class RepoCommitLocks extends RepoCommitLocksContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class RepoSoftDeletes extends RepoSoftDeleteStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Names extends NameRegistryContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class PrefixClaims extends PrefixClaimStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class PendingCreations extends PendingCreationStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class DroppedTableClaims extends DroppedTableClaimStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Repos extends RepoStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Idempotency extends IdempotencyStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class MaintenanceJobs extends MaintenanceJobStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class Audit extends AuditLogContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }

  @Nested
  class WebSessions extends WebSessionStoreContract {
    @Override
    protected PersistencePorts ports() {
      return backend;
    }
  }
}
