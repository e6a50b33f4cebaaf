package io.floe.adapters.rest.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {
  @ParameterizedTest(name = "[{0}] allows gzip: {1}")
  @CsvSource(delimiter = '|', nullValues = "NULL", value = {
      "NULL | false",
      "'' | false",
      "identity | false",
      "gzip | true",
      "GZIP | true",
      "x-gzip | true",
      "'gzip, deflate' | true",
      "'gzip, x-gzip, deflate' | true",
      "'br;q=1.0, gzip;q=0.8, *;q=0.1' | true",
      "'gzip;q=0' | false",
      "'gzip;q=0.000' | false",
      "'*' | true",
      "'*;q=0' | false",
      "'gzip;q=0, *' | false",
      "'deflate, *;q=0.5' | true",
      "'gzip;q=nonsense' | false",
      "';;;,,,' | false",
  })
  void decides(String header, boolean allowed) {
    assertThat(AcceptEncoding.allowsGzip(header)).isEqualTo(allowed);
  }
}
