/**
 * The repository server ({@code stele server}): HTTPS, users and sessions, access rules that bind
 * every object served, and the audit log.
 */
@NullMarked
package dev.stele.server;

import org.jspecify.annotations.NullMarked;
