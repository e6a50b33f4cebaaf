package io.floe.application.model;

/** A 1-based page of a listing, 1 to {@value #MAX_SIZE} items long. */
public record PageRequest(int page, int size) {
  public static final int MAX_SIZE = 100;
  public static final int DEFAULT_SIZE = 50;

  public PageRequest {
    if (page < 1) {
      throw Invalid.because("page must be 1 or more, got " + page);
    }
    if (size < 1 || size > MAX_SIZE) {
      throw Invalid.because("size must be between 1 and " + MAX_SIZE + ", got " + size);
    }
  }

  public long offset() {
    return (long) (page - 1) * size;
  }
}
