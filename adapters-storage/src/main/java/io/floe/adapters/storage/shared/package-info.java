/**
 * What the platform adapters ({@code s3}, {@code gcs}) share: the prefix every key must lie
 * beneath, and the reuse of vended credentials. It lives below them, apart from the root package,
 * because the root package ({@code StorageAdapters}) builds every platform's adapters and the
 * platforms must not depend back on it.
 */
package io.floe.adapters.storage.shared;
