package io.floe.adapters.persistence;

import java.util.Objects;

/** How to reach a PostgreSQL server. */
public record DatabaseSettings(String jdbcUrl, String user, String password) {
  public DatabaseSettings {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "database URL must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db), got: "
              + jdbcUrl);
    }
  }

  @Override
  public String toString() {
    return "DatabaseSettings[" + jdbcUrl + ", user=" + user + "]";
  }
}
