package io.floe.application.model;

import java.time.Instant;

/**
 * A background worker the server needs that is down: since when, and when it runs again. What
 * failed is in the log, not here: this is shown to anyone who asks whether the server is ready.
 */
public record WorkerOutage(String worker, Instant since, Instant retryAt) {}
