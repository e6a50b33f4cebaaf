package io.floe.adapters.persistence.jooq;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Concurrent reads of one key share one query, and every read still sees what was committed
 * before it began. A read joins a query that has not started yet, never one already running:
 * that one may have been sent before a commit the reader already saw acknowledged. So per key at
 * most one query runs and one waits to start, and everyone who arrives while it waits shares it.
 * When sixteen engines load one hot table, PostgreSQL answers a handful of queries instead of
 * sixteen, and no load returns a pointer older than a commit acknowledged before the load began.
 *
 * <p>A failed query fails everyone who shared it, as if each had sent it.
 */
final class SharedReads<K, V> {
  private final ConcurrentHashMap<K, Slot<V>> slots = new ConcurrentHashMap<>();

  /** The per-key state; changed only inside the map's atomic {@code compute}. */
  private static final class Slot<V> {
    CompletableFuture<V> running;
    CompletableFuture<V> waiting;
  }

  /** What {@link #join} decided for one reader. */
  private record Ticket<V>(CompletableFuture<V> query, boolean sends,
      CompletableFuture<V> predecessor) {}

  /** The value of {@code query} for {@code key}, from a query that started after this call. */
  V read(K key, Supplier<V> query) {
    Ticket<V> ticket = join(key);
    if (!ticket.sends()) {
      return await(ticket.query());
    }
    if (ticket.predecessor() != null) {
      ticket.predecessor().exceptionally(failure -> null).join();
    }
    slots.computeIfPresent(key, (k, slot) -> {
      slot.running = ticket.query();
      slot.waiting = null;
      return slot;
    });
    V value;
    try {
      value = query.get();
    } catch (RuntimeException | Error failure) {
      finish(key, ticket.query());
      ticket.query().completeExceptionally(failure);
      throw failure;
    }
    finish(key, ticket.query());
    ticket.query().complete(value);
    return value;
  }

  /** Keys with a query running or waiting: none once every read has returned. */
  int keysInFlight() {
    return slots.size();
  }

  private Ticket<V> join(K key) {
    @SuppressWarnings("unchecked")
    Ticket<V>[] decided = new Ticket[1];
    slots.compute(key, (k, existing) -> {
      Slot<V> slot = existing != null ? existing : new Slot<>();
      if (slot.waiting != null) {
        decided[0] = new Ticket<>(slot.waiting, false, null);
      } else if (slot.running == null) {
        slot.running = new CompletableFuture<>();
        decided[0] = new Ticket<>(slot.running, true, null);
      } else {
        slot.waiting = new CompletableFuture<>();
        decided[0] = new Ticket<>(slot.waiting, true, slot.running);
      }
      return slot;
    });
    return decided[0];
  }

  /** Frees the key's running place before the sharers wake, so the next query may start. */
  private void finish(K key, CompletableFuture<V> query) {
    slots.computeIfPresent(key, (k, slot) -> {
      if (slot.running == query) {
        slot.running = null;
      }
      return slot.running == null && slot.waiting == null ? null : slot;
    });
  }

  private static <V> V await(CompletableFuture<V> query) {
    try {
      return query.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
