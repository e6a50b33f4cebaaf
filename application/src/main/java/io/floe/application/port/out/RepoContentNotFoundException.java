package io.floe.application.port.out;

import org.apache.iceberg.exceptions.NotFoundException;

/**
 * A repository, branch, tag, snapshot or node asked for does not exist. A not-found like any other,
 * so it is answered with 404.
 */
public class RepoContentNotFoundException extends NotFoundException {
  public RepoContentNotFoundException(String message) {
    super("%s", message);
  }
}
