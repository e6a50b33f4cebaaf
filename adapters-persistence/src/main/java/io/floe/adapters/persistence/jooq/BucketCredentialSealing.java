package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.BUCKET_CONFIGS;
import static io.floe.adapters.persistence.jooq.schema.Tables.WEBHOOK_SUBSCRIPTIONS;

import io.floe.adapters.persistence.jooq.schema.tables.records.BucketConfigsRecord;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings every bucket's credentials under the cipher's current key, in one transaction: seals
 * those still in plain text (written by a version before sealing), seals again those sealed with
 * a previous key, and opens all the others, which proves the key is the right one. It runs on
 * every start and for a key rotation. A value it cannot open (a key it was not given, an altered
 * row) stops it with an {@link UnreadableSecretException} and changes nothing: there is never a
 * state in which some rows are sealed with a key the server does not have.
 */
public final class BucketCredentialSealing {
  private static final Logger LOG = LoggerFactory.getLogger(BucketCredentialSealing.class);

  /** What a pass did: how many rows it sealed, sealed again, and found already sealed. */
  public record Outcome(int sealedFromPlainText, int resealed, int alreadySealed) {}

  private final Database database;
  private final SecretCipher cipher;

  public BucketCredentialSealing(Database database, SecretCipher cipher) {
    this.database = database;
    this.cipher = cipher;
  }

  public Outcome run() {
    Outcome outcome = database.inTransaction(() -> {
      DSLContext dsl = database.dsl();
      // Writers of bucket configurations wait, and a second server starting does the same pass
      // after this one, finding nothing left to do.
      dsl.execute("lock table bucket_configs in share row exclusive mode");
      int sealed = 0;
      int resealed = 0;
      int unchanged = 0;
      for (BucketConfigsRecord row : dsl.selectFrom(BUCKET_CONFIGS).orderBy(BUCKET_CONFIGS.ID)
          .fetch()) {
        String boundTo = SealedCredentials.boundTo(row.getId());
        if (row.getSealedCredentials() == null) {
          store(dsl, row, cipher.seal(row.getCredentials().data(), boundTo));
          sealed++;
        } else {
          String plainText = cipher.open(row.getSealedCredentials(), boundTo);
          if (cipher.isSealedWithCurrentKey(row.getSealedCredentials())) {
            unchanged++;
          } else {
            store(dsl, row, cipher.seal(plainText, boundTo));
            resealed++;
          }
        }
      }
      resealWebhookSecrets(dsl);
      return new Outcome(sealed, resealed, unchanged);
    });
    if (outcome.sealedFromPlainText() > 0) {
      LOG.info("sealed the credentials of {} bucket configurations that were stored in plain "
          + "text, with key {}", outcome.sealedFromPlainText(), cipher.currentKey().id());
    }
    if (outcome.resealed() > 0) {
      LOG.info("sealed the credentials of {} bucket configurations again, with the new key {}",
          outcome.resealed(), cipher.currentKey().id());
    }
    return outcome;
  }

  /**
   * Webhook subscriptions' secrets and Kafka passwords, sealed the same way, follow the key in
   * the same pass: opened (proving the key), and sealed again when a previous key sealed them.
   */
  private void resealWebhookSecrets(DSLContext dsl) {
    dsl.execute("lock table webhook_subscriptions in share row exclusive mode");
    int resealed = 0;
    for (var row : dsl.select(WEBHOOK_SUBSCRIPTIONS.ID, WEBHOOK_SUBSCRIPTIONS.SEALED_SECRET,
            WEBHOOK_SUBSCRIPTIONS.SEALED_KAFKA_PASSWORD)
        .from(WEBHOOK_SUBSCRIPTIONS).orderBy(WEBHOOK_SUBSCRIPTIONS.ID).fetch()) {
      String boundTo = JooqWebhookSubscriptionStore.boundTo(row.value1());
      String secret = cipher.open(row.value2(), boundTo);
      if (!cipher.isSealedWithCurrentKey(row.value2())) {
        dsl.update(WEBHOOK_SUBSCRIPTIONS)
            .set(WEBHOOK_SUBSCRIPTIONS.SEALED_SECRET, cipher.seal(secret, boundTo))
            .where(WEBHOOK_SUBSCRIPTIONS.ID.eq(row.value1())).execute();
        resealed++;
      }
      // A Kafka target's password, when it has one, the same way.
      if (row.value3() != null) {
        String passwordBoundTo = JooqWebhookSubscriptionStore.passwordBoundTo(row.value1());
        String password = cipher.open(row.value3(), passwordBoundTo);
        if (!cipher.isSealedWithCurrentKey(row.value3())) {
          dsl.update(WEBHOOK_SUBSCRIPTIONS)
              .set(WEBHOOK_SUBSCRIPTIONS.SEALED_KAFKA_PASSWORD,
                  cipher.seal(password, passwordBoundTo))
              .where(WEBHOOK_SUBSCRIPTIONS.ID.eq(row.value1())).execute();
        }
      }
    }
    if (resealed > 0) {
      LOG.info("sealed the secrets of {} webhook subscriptions again, with the new key {}",
          resealed, cipher.currentKey().id());
    }
  }

  private static void store(DSLContext dsl, BucketConfigsRecord row, String sealed) {
    dsl.update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.SEALED_CREDENTIALS, sealed)
        .setNull(BUCKET_CONFIGS.CREDENTIALS)
        .where(BUCKET_CONFIGS.ID.eq(row.getId()))
        .execute();
  }
}
