package io.floe.adapters.rest.management;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.Consumer;

/**
 * The S3 endpoint local buckets have in the arraylake client's model
 * ({@link ArraylakeBuckets#LOCAL_ENDPOINT_PATH}). It serves no data: every request gets an S3
 * error document saying that the bucket is a directory of the Floe server, so a store the client
 * builds for it fails with that sentence instead of reaching some other S3 bucket.
 */
public final class LocalBucketEndpoint implements Consumer<RoutesConfig> {
  static final String MESSAGE = "This is a local bucket of the Floe server, a directory on its "
      + "disk that is not served over S3: open its repos with Icechunk on the server's machine "
      + "(icechunk.local_filesystem_storage), or use an object-store bucket";

  @Override
  public void accept(RoutesConfig routes) {
    Handler explain = LocalBucketEndpoint::explain;
    for (String path : new String[] {ArraylakeBuckets.LOCAL_ENDPOINT_PATH,
        ArraylakeBuckets.LOCAL_ENDPOINT_PATH + "/*"}) {
      routes.get(path, explain);
      routes.head(path, explain);
      routes.put(path, explain);
      routes.post(path, explain);
      routes.delete(path, explain);
    }
  }

  private static void explain(Context ctx) {
    ctx.status(400).contentType("application/xml").result(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InvalidRequest</Code><Message>"
            + MESSAGE + "</Message></Error>\n");
  }
}
