package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shows that another service can embed the domain on its own: a separate JPMS module that
 * requires only {@code io.floe.domain} compiles and runs with nothing else on its module path.
 */
class StandaloneModuleTest {

  @Test
  void anotherServiceCompilesAndRunsAgainstTheDomainModuleAlone(@TempDir Path work)
      throws IOException, InterruptedException {
    Path domainClasses = Path.of(
        ApiToken.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    Path source = work.resolve("src/com.example.inventory");
    Path pkg = Files.createDirectories(source.resolve("com/example/inventory"));
    Files.writeString(source.resolve("module-info.java"),
        "module com.example.inventory { requires io.floe.domain; }");
    Files.writeString(pkg.resolve("Main.java"), """
        package com.example.inventory;
        import io.floe.domain.*;
        public class Main {
          public static void main(String[] args) {
            CatalogName name = new CatalogName("Raw.Obs");
            StoragePath a = new StoragePath("warehouse/abc_ns");
            System.out.println(name.key() + " " + name.warning().isPresent() + " "
                + a.overlaps(new StoragePath("warehouse")));
          }
        }
        """);
    Path classes = work.resolve("classes");
    String compiled = run(tool("javac"), "--module-path", domainClasses.toString(),
        "-d", classes.toString(), source.resolve("module-info.java").toString(),
        pkg.resolve("Main.java").toString());
    assertThat(compiled).as("the consumer module compiles against the domain alone").isEmpty();

    String output = run(tool("java"),
        "--module-path", domainClasses + java.io.File.pathSeparator + classes,
        "-m", "com.example.inventory/com.example.inventory.Main");
    assertThat(output.strip()).isEqualTo("raw.obs true true");
  }

  private static String tool(String name) {
    return Path.of(System.getProperty("java.home"), "bin", name).toString();
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
