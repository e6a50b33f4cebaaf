package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqCatalogObjectStore;
import io.floe.adapters.persistence.jooq.JooqNamespaceStore;
import io.floe.adapters.persistence.jooq.JooqOrgStore;
import io.floe.adapters.persistence.jooq.JooqPrincipalStore;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.application.testbed.Poll;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** One server's view of a database as the server wires it: its own pool, listener and caches. */
final class CachedServer implements AutoCloseable {
  final Database database;
  final CacheInvalidations invalidations;
  final TokenUseRecorder tokenUses;
  final JooqPrincipalStore principalRows;
  final CachingPrincipalStore principals;
  final CachingOrgStore orgs;
  final CachingNamespaceStore namespaces;
  final JooqCatalogObjectStore objectRows;
  final CachingCatalogObjectStore objects;

  /** {@code cipher}: the key every server on the database opens bucket credentials with. */
  CachedServer(DatabaseSettings settings, SecretCipher cipher) {
    database = Database.open(settings, 4);
    invalidations = CacheInvalidations.start(database);
    principalRows = new JooqPrincipalStore(database);
    tokenUses = new TokenUseRecorder(principalRows::touchTokens);
    principals = new CachingPrincipalStore(principalRows, invalidations, tokenUses);
    orgs = new CachingOrgStore(new JooqOrgStore(database, cipher), invalidations);
    namespaces = new CachingNamespaceStore(new JooqNamespaceStore(database), invalidations);
    objectRows = new JooqCatalogObjectStore(database, cipher, invalidations.pointerWrites());
    objects = new CachingCatalogObjectStore(objectRows, namespaces, orgs,
        invalidations.pointers());
  }

  long hits(String cache) {
    return invalidations.caches().stream().filter(it -> it.name().equals(cache))
        .mapToLong(it -> it.statistics().stats().hitCount()).sum();
  }

  /** Waits until the listener has proved it hears every announcement. */
  CachedServer listening() throws InterruptedException {
    await(invalidations::trusted, "cache invalidations are listened to");
    return this;
  }

  /** Waits until this server serves the pointers it keeps. */
  CachedServer servingPointers() throws InterruptedException {
    await(invalidations::pointersServed, "the server serves pointers kept in memory");
    return this;
  }

  /** Waits (at most 30 s) until {@code condition} holds, and fails if it never does. */
  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    Poll.until(condition, Duration.ofSeconds(30));
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  @Override
  public void close() {
    tokenUses.close();
    invalidations.close();
    database.close();
  }
}
