/**
 * Where JNA finds its own native library: the one place that points it at the copy the distribution
 * ships, for every class that calls native code through JNA.
 *
 * <p>Depends only on the JDK and JNA.
 */
package dev.stele.jna;
