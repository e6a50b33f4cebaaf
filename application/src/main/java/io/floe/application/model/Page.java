package io.floe.application.model;

import java.util.List;
import java.util.function.Function;

/** One page of a listing and where it sits in the whole: the shape the management API returns. */
public record Page<T>(List<T> items, long total, int page, int size) {
  public Page {
    items = List.copyOf(items);
  }

  /** How many pages the whole listing has; at least 1, so that page 1 of nothing is the last. */
  public int pages() {
    return (int) Math.max(1, (total + size - 1) / size);
  }

  public <R> Page<R> map(Function<T, R> mapper) {
    return new Page<>(items.stream().map(mapper).toList(), total, page, size);
  }
}
