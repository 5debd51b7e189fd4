/**
 * The {@code stele} command line: picocli commands over the engine in {@code dev.stele.repo} and
 * {@code dev.stele.snapshot}, plus what only a terminal needs — password sources, progress lines,
 * exit codes and one-line error messages.
 *
 * <p>Nothing in the engine may depend on this package. Commands reach the process (environment,
 * streams, console) only through {@link dev.stele.cli.CliEnvironment}, so tests run them in-process
 * with captured output and scripted passwords.
 */
package dev.stele.cli;
