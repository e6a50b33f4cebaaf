/**
 * Commands, queries and results that cross the application's boundary. In-ports take and return
 * them and out-ports may read and return them, so they live here, importing neither port kind:
 * commands validate themselves when they are built, results are plain values.
 */
package io.floe.application.model;
