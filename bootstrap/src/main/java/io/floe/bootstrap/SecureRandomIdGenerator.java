package io.floe.bootstrap;

import io.floe.application.port.out.IdGenerator;
import java.security.SecureRandom;
import java.util.UUID;

/** Random UUIDs and secrets from the platform's strong random source. */
final class SecureRandomIdGenerator implements IdGenerator {
  private final SecureRandom random = new SecureRandom();

  @Override
  public UUID newId() {
    return UUID.randomUUID();
  }

  @Override
  public int randomBelow(int bound) {
    return random.nextInt(bound);
  }

  @Override
  public byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
