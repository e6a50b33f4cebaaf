package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.IdGenerator;
import java.util.Random;
import java.util.UUID;

/**
 * Predictable ids and randomness: ids count up from {@code 00000000-0000-0000-0000-000000000001}
 * and the random numbers come from a fixed seed, so two runs of a test see the same values.
 */
public final class SequentialIds implements IdGenerator {
  private final Random random = new Random(13);
  private long next;

  @Override
  public synchronized UUID newId() {
    return new UUID(0, ++next);
  }

  @Override
  public synchronized int randomBelow(int bound) {
    return random.nextInt(bound);
  }

  @Override
  public synchronized byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
